import CSodium

/// Bridges Swift byte collections to the pointer-plus-length form libsodium takes.
enum ByteBuffers {
    /// Runs `body` over the bytes of `collection` without copying when it is
    /// already contiguous (Array, ArraySlice, native String.UTF8View, Data),
    /// copying into a temporary array otherwise.
    static func withContiguous<R>(
        _ collection: some Collection<UInt8>,
        _ body: (UnsafeBufferPointer<UInt8>) -> R
    ) -> R {
        if let result = collection.withContiguousStorageIfAvailable(body) {
            return result
        }
        return Array(collection).withUnsafeBufferPointer(body)
    }

    /// Overwrites an ordinary array that briefly held secret material
    /// (`sodium_memzero` cannot be optimised away, unlike a plain loop).
    static func zero(_ array: inout [UInt8]) {
        array.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress { sodium_memzero(base, buffer.count) }
        }
    }
}
