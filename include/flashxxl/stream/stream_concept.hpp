// The stream concept of flashxxl's pipelines: operator*, operator++ and empty(), as STXXL's stream:: has it.
#pragma once

#include <type_traits>
#include <utility>

namespace flashxxl::stream {

//! A stream is a type S with `*s` (the current item, valid while !s.empty()), `++s` (moves to the
//! next item) and `s.empty()` (no item left). Sources make streams from vectors, ranges and
//! generators; stages (transform, filter, unique, sort) take a stream by reference and are
//! streams themselves; materialize consumes one. A stage holds its input by reference, so the
//! input must outlive it (as in STXXL's stream::, seeds/002), and only the last stage of a
//! pipeline is read by the caller.
template <class S, class = void> struct is_stream : std::false_type {};
template <class S>
struct is_stream<S, std::void_t<decltype(*std::declval<const S&>()), decltype(++std::declval<S&>()),
                                decltype(bool(std::declval<const S&>().empty()))>> : std::true_type {};
template <class S> inline constexpr bool is_stream_v = is_stream<S>::value;

//! The item type of stream S (what `*s` gives, without reference or const).
template <class S> using value_t = std::decay_t<decltype(*std::declval<const S&>())>;

//! Whether S also hands out runs of items contiguous in memory (run() and skip(k)), as the
//! vector source does: the sort stage then pushes them in one copy each.
template <class S, class = void> struct has_runs : std::false_type {};
template <class S>
struct has_runs<S,
                std::void_t<decltype(std::declval<const S&>().run()), decltype(std::declval<S&>().skip(1))>>
    : std::true_type {};

} // namespace flashxxl::stream
