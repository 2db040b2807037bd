// Placeholder: the fault campaign (issue 7) is being written.
print("muster-faults: not written yet")
