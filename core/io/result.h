// SPDX-License-Identifier: MIT
#pragma once
// Result<T>: a value or an Error. Core code returns these and never throws across threads.

#include "error.h"

#include <cassert>
#include <optional>
#include <utility>
#include <variant>

namespace asc {

template <class T>
class [[nodiscard]] Result {
public:
    Result(T value)
        : state_(std::in_place_index<0>, std::move(value)) {}
    Result(Error error)
        : state_(std::in_place_index<1>, std::move(error)) {}

    bool ok() const { return state_.index() == 0; }
    explicit operator bool() const { return ok(); }

    T &value() &
    {
        assert(ok());
        return std::get<0>(state_);
    }
    const T &value() const &
    {
        assert(ok());
        return std::get<0>(state_);
    }
    T &&value() &&
    {
        assert(ok());
        return std::get<0>(std::move(state_));
    }
    T &operator*() & { return value(); }
    const T &operator*() const & { return value(); }
    T *operator->() { return &value(); }
    const T *operator->() const { return &value(); }

    const Error &error() const &
    {
        assert(!ok());
        return std::get<1>(state_);
    }
    Error &&error() &&
    {
        assert(!ok());
        return std::get<1>(std::move(state_));
    }

private:
    std::variant<T, Error> state_;
};

template <>
class [[nodiscard]] Result<void> {
public:
    Result() = default;
    Result(Error error)
        : error_(std::move(error)) {}

    bool ok() const { return !error_; }
    explicit operator bool() const { return ok(); }
    const Error &error() const &
    {
        assert(!ok());
        return *error_;
    }
    Error &&error() &&
    {
        assert(!ok());
        return std::move(*error_);
    }

private:
    std::optional<Error> error_;
};

} // namespace asc
