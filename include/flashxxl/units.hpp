// Parsing and printing of byte sizes (IEC units only) and durations.
#pragma once

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>

#include "flashxxl/error.hpp"

namespace flashxxl {

constexpr std::uint64_t KiB = std::uint64_t(1) << 10;
constexpr std::uint64_t MiB = std::uint64_t(1) << 20;
constexpr std::uint64_t GiB = std::uint64_t(1) << 30;
constexpr std::uint64_t TiB = std::uint64_t(1) << 40;

namespace detail {
//! The leading number of a size text (after whitespace): its value, with `i` left after its
//! digits. config_error on overflow or when there is no digit (`example` says what was expected).
std::uint64_t parse_size_number(const std::string& text, std::size_t& i, const char* example);
} // namespace detail

//! Parses a byte size: a plain integer ("4096"), or an integer with an IEC unit
//! ("16KiB", "512MiB", "32GiB", "1TiB"; case-insensitive, whitespace between allowed).
//! Decimal units ("16M", "16MB", "16G") are rejected: STXXL reads them as powers of ten,
//! which is a classic source of off-by-5% capacities. Throws config_error naming the text.
std::uint64_t parse_size(const std::string& text);

//! Parses the SIZE field of a `disk=` / `flash=` line with STXXL 1.4.1's meaning, so that an
//! existing `.stxxl` file loads unchanged: IEC units (KiB, Ki, MiB, Mi, GiB, Gi, TiB, Ti; case
//! as in STXXL) are powers of two; SI units (k/K, M, G, T, P, each optionally followed by B) are
//! powers of ten, so `1G` is 10^9 bytes; a number with a B alone is bytes; a plain number is
//! MiB (STXXL's default unit). Sets `decimal` when an SI unit was used. Throws config_error
//! naming the text.
std::uint64_t parse_stxxl_size(const std::string& text, bool* decimal = nullptr);

//! Parses a finite floating-point number; throws config_error naming the text (inf, nan included).
double parse_number(const std::string& text);

//! "512 B", "4 KiB", "1.5 MiB", ...: the largest IEC unit that keeps the value >= 1.
std::string format_bytes(double bytes);

//! A size in the compact form parse_size reads back ("512KiB", "4096").
std::string format_size(std::uint64_t bytes);

} // namespace flashxxl
