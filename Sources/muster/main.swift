print("muster")
