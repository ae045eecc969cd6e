// Move assignment of a container as "destroy, then move-construct in place".
#pragma once

#include <new>
#include <type_traits>
#include <utility>

namespace flashxxl {

//! `self = std::move(other)` for a container whose member-by-member assignment would be wrong:
//! its buffers count on an account it owns (they must be released before that account goes, but
//! a member-wise assignment replaces the account first), or it has I/O in flight that its
//! destructor waits for. The old contents go exactly as the destructor lets them go, then `self`
//! takes over `other`'s. C has no const or reference members and is not a base class, so the
//! new object is reached through the old name.
template <class C> C& replace_by_move(C& self, C&& other) noexcept {
    static_assert(std::is_nothrow_move_constructible<C>::value,
                  "replace_by_move needs a noexcept move constructor");
    static_assert(std::is_nothrow_destructible<C>::value, "replace_by_move needs a noexcept destructor");
    if (&self != &other) {
        self.~C();
        ::new (static_cast<void*>(&self)) C(std::move(other));
    }
    return self;
}

} // namespace flashxxl
