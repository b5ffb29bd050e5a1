// SPDX-License-Identifier: MIT
#pragma once
// An allocator whose resize() leaves new bytes uninitialised: buffers about to be overwritten by
// a read are not zeroed first (a megabyte of memset and page faults per small input).

#include <memory>
#include <utility>

namespace asc {

template <typename T>
class DefaultInitAllocator : public std::allocator<T> {
public:
    using std::allocator<T>::allocator;
    template <typename U>
    struct rebind {
        using other = DefaultInitAllocator<U>;
    };
    template <typename U>
    void construct(U *at) noexcept
    {
        ::new (static_cast<void *>(at)) U;
    }
    template <typename U, typename... Args>
    void construct(U *at, Args &&...args)
    {
        ::new (static_cast<void *>(at)) U(std::forward<Args>(args)...);
    }
};

} // namespace asc
