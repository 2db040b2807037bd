/// The scheduler's agenda: a binary min-heap of events ordered by (time, sequence number).
///
/// The sequence number is the order in which events were scheduled, so two events due at the same
/// virtual instant always run in the same order and a seed replays exactly — a heap alone does not
/// promise that ties come out in insertion order.
///
/// The heap moves only plain keys (time, sequence, slot); the events, whose frames hold arrays,
/// wait in slots. Sifting entries that carried the event copied it, retains and releases included,
/// on every comparison (5 % of a 50-kiosk simulation).
struct EventQueue {
    struct Entry {
        let time: VirtualTime
        let sequence: UInt64
        let event: SimEvent
    }

    private struct Key {
        let time: VirtualTime
        let sequence: UInt64
        let slot: Int

        func precedes(_ other: Key) -> Bool {
            time < other.time || (time == other.time && sequence < other.sequence)
        }
    }

    private var heap: [Key] = []
    /// The events by slot; nil where a slot is free.
    private var slots: [SimEvent?] = []
    private var freeSlots: [Int] = []
    private var nextSequence: UInt64 = 0

    var isEmpty: Bool { heap.isEmpty }
    var count: Int { heap.count }
    /// When the earliest event is due, if any.
    var nextTime: VirtualTime? { heap.first?.time }

    mutating func schedule(_ event: SimEvent, at time: VirtualTime) {
        let slot: Int
        if let free = freeSlots.popLast() {
            slot = free
            slots[slot] = event
        } else {
            slot = slots.count
            slots.append(event)
        }
        heap.append(Key(time: time, sequence: nextSequence, slot: slot))
        nextSequence += 1
        siftUp(heap.count - 1)
    }

    /// Removes and returns the earliest event (by time, then by scheduling order).
    mutating func pop() -> Entry? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let key = heap.removeLast()
        if !heap.isEmpty { siftDown(0) }
        guard let event = slots[key.slot].take() else { return nil }
        freeSlots.append(key.slot)
        return Entry(time: key.time, sequence: key.sequence, event: event)
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        let count = heap.count
        while true {
            let left = 2 * parent + 1
            guard left < count else { return }
            let right = left + 1
            var first = left
            if right < count, heap[right].precedes(heap[left]) { first = right }
            guard heap[first].precedes(heap[parent]) else { return }
            heap.swapAt(first, parent)
            parent = first
        }
    }
}
