// flashxxl::distributed::distributed_sort: runs per rank, exact splitters, one all-to-all, a local merge.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "flashxxl/block_sizes.hpp"
#include "flashxxl/container/parallel_merge.hpp"
#include "flashxxl/container/sorter.hpp"
#include "flashxxl/container/vector.hpp"
#include "flashxxl/distributed/communicator.hpp"
#include "flashxxl/distributed/cut_pages.hpp"
#include "flashxxl/distributed/failure_agreement.hpp"
#include "flashxxl/distributed/index_splitters.hpp"
#include "flashxxl/distributed/metered_communicator.hpp"
#include "flashxxl/distributed/multisequence_selection.hpp"
#include "flashxxl/distributed/phase_measure.hpp"
#include "flashxxl/distributed/sorted_run.hpp"
#include "flashxxl/error.hpp"
#include "flashxxl/io/memory_account.hpp"
#include "flashxxl/units.hpp"

namespace flashxxl::distributed {

//! How one rank sorts: its budget M, its block sizes, where its runs go, its threads.
struct distributed_sort_config {
    std::uint64_t memory = 256 * MiB;
    block_sizes blocks;
    role run_role = role::scratch;
    std::size_t threads = 0; //!< the sorter's and merge's threads (0: default_threads())
    //! Targets the selection settles at once (its all_gathers carry a candidate per target and run).
    std::size_t selection_batch = 8;
    bool release_input =
        false; //!< clear the input vector once the runs hold it (one copy less on the devices)
};

//! What one rank did.
struct distributed_sort_report {
    std::uint64_t input_items = 0, output_items = 0, global_items = 0;
    std::uint64_t runs = 0;            //!< sorted runs this rank formed
    std::uint64_t exchange_rounds = 0; //!< Q: slices of every rank's output, each merged in memory
    std::uint64_t exchange_steps = 0;  //!< all-to-all steps of at most a Bw per destination
    std::uint64_t piece_bytes = 0;     //!< the most bytes a step sends to one destination
    std::uint64_t exchanged_bytes = 0; //!< items this rank handed to the exchange (sent or kept), in bytes
    std::uint64_t sent_bytes = 0;      //!< of those, bytes sent to other ranks
    selection_report selection;
    std::uint64_t selection_pages_read = 0; //!< Br pages the selection read from the runs: none (the index)
    std::uint64_t global_runs = 0;          //!< runs of all ranks
    //! A share (and a slice) differs from its exact size by fewer items than this: (R + 1) x the
    //! items of a Br page, R = global_runs (select_index_splitters).
    std::uint64_t imbalance_bound_items = 0;
    std::uint64_t cut_pages_read = 0;     //!< Br pages read to place the cuts, each then sent from memory
    std::uint64_t cut_pages_not_kept = 0; //!< of those, pages not kept for lack of memory (read again)
    //! Bytes the kept cut pages may take: 3 P R Br (R local runs) while the two-pass condition
    //! holds, else 0
    std::uint64_t cut_page_memory = 0;
    std::uint64_t cut_page_peak = 0;   //!< the most bytes they took
    std::vector<phase_figures> phases; //!< run formation, selection, exchange and merge
};

//! Br blocks each run reader of the exchange keeps in flight: a piece's worth (Bw / Br), so the
//! reads of a destination's next piece proceed while the rank waits in an all-to-all step.
inline std::size_t exchange_prefetch(const block_sizes& b) {
    return std::size_t(std::max<std::uint64_t>(1, b.bw / b.br));
}

//! Memory the exchange needs besides the slice it merges: the output writer (2 Bw), and per
//! destination a run reader (Bw + Br: exchange_prefetch) and a piece of Bw in four copies (send
//! buffer, the communicator's packed copies, received).
template <class T> std::uint64_t exchange_fixed_memory(const block_sizes& b, int ranks) {
    return vector<T>::stream_writer::memory_usage(b) +
           std::uint64_t(ranks) *
               (vector<T>::stream_reader::memory_usage(b, exchange_prefetch(b)) + 4 * b.bw);
}

//! The smallest M a rank accepts with `ranks` ranks: run formation's reader, run writer and
//! sorter, or the exchange's fixed part and a slice of one Bw, whichever is more.
template <class T, class Before> std::uint64_t distributed_sort_min_memory(const block_sizes& b, int ranks) {
    const std::uint64_t runs = vector<T>::stream_reader::memory_usage(b, 1) +
                               vector<T>::stream_writer::memory_usage(b) + sorter<T, Before>::min_memory(b);
    return std::max(runs, exchange_fixed_memory<T>(b, ranks) + b.bw);
}

namespace detail {

//! floor(n * i / parts) without overflow (i <= parts): where part i of n items starts.
inline std::uint64_t share_start(std::uint64_t n, std::uint64_t i, std::uint64_t parts) {
    return n / parts * i + n % parts * i / parts;
}

//! The global ranks where the output is cut: rank j's share [first_j, first_{j+1}) of the n items
//! (balanced, as record_generator::first_of), each in `slices` equal slices; the last target is n.
inline std::vector<std::uint64_t> slice_targets(std::uint64_t n, int ranks, std::uint64_t slices) {
    std::vector<std::uint64_t> targets;
    for (int j = 0; j < ranks; ++j) {
        const std::uint64_t first = share_start(n, std::uint64_t(j), std::uint64_t(ranks));
        const std::uint64_t next = share_start(n, std::uint64_t(j) + 1, std::uint64_t(ranks));
        for (std::uint64_t q = 0; q < slices; ++q)
            targets.push_back(first + share_start(next - first, q, slices));
    }
    targets.push_back(n);
    return targets;
}

//! Reads one destination's pieces of one exchange round, run after run, a piece at a time: the
//! first and last page of a piece from memory where the cut pages keep them, the pages between
//! with a Br reader, so no page is read twice.
template <class T, class Run, class Cuts> class outgoing_pieces {
public:
    using reader_type = typename vector<T>::stream_reader;
    outgoing_pieces(std::vector<std::unique_ptr<Run>>& runs, Cuts& cuts, std::vector<std::uint64_t> from,
                    std::vector<std::uint64_t> to, std::size_t prefetch, memory_account* account)
        : runs_(&runs), cuts_(&cuts), from_(std::move(from)), to_(std::move(to)), prefetch_(prefetch),
          account_(account) {
        if (!runs.empty()) pos_ = from_[0];
    }

    //! Appends up to `items` items to `out`; returns how many.
    std::uint64_t append(byte_buffer& out, std::uint64_t items) {
        std::uint64_t given = 0;
        while (given < items && run_ < runs_->size()) {
            if (pos_ == to_[run_]) {
                if (++run_ < runs_->size()) pos_ = from_[run_];
                continue;
            }
            const std::uint64_t k =
                in_ ? from_reader(out, items - given) : from_kept_or_open(out, items - given);
            given += k;
            pos_ += k;
            if (in_ && pos_ == reader_end_) in_.reset();
        }
        return given;
    }

private:
    //! Copies from the kept page that holds pos_, or opens a reader up to the next kept page.
    std::uint64_t from_kept_or_open(byte_buffer& out, std::uint64_t items) {
        Run& run = *(*runs_)[run_];
        const std::uint64_t per_page = run.items_per_page(), page = pos_ / per_page, to = to_[run_];
        if (const std::vector<T>* kept = cuts_->kept(run_, page)) {
            const std::uint64_t k = std::min(items, std::min(to, (page + 1) * per_page) - pos_);
            append_items(out, kept->data() + (pos_ - page * per_page), k);
            return k;
        }
        const std::uint64_t last = (to - 1) / per_page;
        reader_end_ = last > page && cuts_->kept(run_, last) ? last * per_page : to;
        in_ = std::make_unique<reader_type>(run.items(), pos_, reader_end_, prefetch_, account_);
        return from_reader(out, items);
    }
    std::uint64_t from_reader(byte_buffer& out, std::uint64_t items) {
        const std::uint64_t k = std::min(items, in_->run());
        append_items(out, &**in_, k);
        in_->skip(k);
        return k;
    }
    static void append_items(byte_buffer& out, const T* first, std::uint64_t k) {
        const unsigned char* p = reinterpret_cast<const unsigned char*>(first);
        out.insert(out.end(), p, p + k * sizeof(T));
    }

    std::vector<std::unique_ptr<Run>>* runs_;
    Cuts* cuts_;
    std::vector<std::uint64_t> from_, to_;
    std::size_t prefetch_;
    memory_account* account_;
    std::size_t run_ = 0;
    std::uint64_t pos_ = 0, reader_end_ = 0;
    std::unique_ptr<reader_type> in_;
};

} // namespace detail

//! Sorts the items of every rank's `input` by `before` into the ranks' `output` vectors: rank j's
//! output holds the items of about global ranks [n j / P, n (j+1) / P) in order (fewer than
//! report.imbalance_bound_items more or less), so the outputs in rank order are the sorted whole.
//! Every rank calls it (collectively, like an MPI call) with its own machine
//! (input.get_machine()) and config. DEMSort's structure (Rahn, Sanders, Singler, ICDE 2010),
//! with the in-memory merge of slices in place of its final external merge:
//!
//! 1. Run formation: the input is read once (Br reads) and cut into runs of about M, whole Br
//!    pages each, sorted in memory by flashxxl::sorter (threads) and written with Bw writes
//!    (sorted_run, which keeps the first item of every page as an index).
//! 2. Selection: splitters for P x Q global ranks (Q the slices per output share that fit in
//!    M) by multisequence selection over the runs' page index (select_index_splitters): no
//!    I/O, each share and slice within (R + 1) pages of items of its exact size.
//! 3. Exchange and merge, Q rounds: each rank places the round's cuts in its runs (reading the
//!    page that holds a cut, cut_pages, and keeping it for both pieces that share it), sends
//!    each destination its runs' pieces of that destination's slice, in all-to-all steps of at
//!    most a Bw per destination (each item moves once); the destination merges the slice's
//!    pieces in memory (merge_sorted) and appends it to its output with Bw writes.
//!
//! I/O per item: one read and one write in run formation, one read (of the runs, every page
//! once) and one write (of the output) in the exchange: the reads are exactly twice the input's
//! Br pages while the kept cut pages fit (report.cut_pages_not_kept == 0). Memory: M per rank:
//! the exchange's buffers (exchange_fixed_memory), the kept cut pages (at most 3 P R Br for R
//! local runs) and the slice; the runs' page index (sizeof(T) per Br) and the cut table (8 P Q
//! words per run) on top.
//!
//! Failures: a step's failure on any rank (out_of_space, a failed read or write, a budget below
//! the minimum) ends the sort on every rank (agree_on_failure): the failing rank throws its own
//! exception, the others an error naming it. The input stays unless release_input.
template <class T, class Before>
distributed_sort_report distributed_sort(metered_communicator& c, vector<T>& input, vector<T>& output,
                                         const distributed_sort_config& config, Before before) {
    using run_type = sorted_run<T>;
    using sorter_type = sorter<T, Before>;
    machine& m = input.get_machine();
    const block_sizes& b = config.blocks;
    const int ranks = c.size(), me = c.rank();
    const std::size_t rank_count = std::size_t(c.size());
    const std::uint64_t per_page = typename vector<T>::layout_type(b.br).items_per_block();
    distributed_sort_report report;
    report.input_items = input.size();
    report.global_items = all_sum(c, report.input_items);
    memory_account account;

    std::uint64_t sorter_memory = 0;
    agree_on_failure(c, "memory budget", [&] {
        b.validate();
        const std::uint64_t need = distributed_sort_min_memory<T, Before>(b, ranks);
        if (config.memory < need)
            throw config_error("distributed sort: memory budget " + format_bytes(double(config.memory)) +
                               " is below the minimum " + format_bytes(double(need)) + " for " +
                               b.describe() + " and " + std::to_string(ranks) +
                               " ranks (run formation: a reader, a run writer and the sorter; exchange: a "
                               "writer, and per rank a reader of Bw + Br and four Bw-sized pieces)");
        sorter_memory = config.memory - vector<T>::stream_reader::memory_usage(b, 1) -
                        vector<T>::stream_writer::memory_usage(b);
    });

    // 1. Run formation.
    std::vector<std::unique_ptr<run_type>> runs;
    {
        phase_measure phase("run formation", m, c);
        agree_on_failure(c, "run formation", [&] {
            sorter_type s(m, sorter_memory, b, before, config.run_role, &account);
            s.set_threads(config.threads);
            // Whole pages per run: only the last run ends in a partial page, so the runs take
            // as many pages as the input.
            const std::uint64_t whole_pages = s.run_capacity() / per_page * per_page;
            const std::uint64_t capacity = whole_pages > 0 ? whole_pages : s.run_capacity();
            auto write_run = [&] {
                s.sort();
                runs.push_back(std::make_unique<run_type>(m, b, config.run_role));
                runs.back()->write_from(s, &account);
                s.clear();
            };
            {
                typename vector<T>::stream_reader in(input, 0, input.size(), 1, &account);
                while (!in.empty()) {
                    const std::uint64_t k = std::min(in.run(), capacity - s.size());
                    s.push(&*in, k);
                    in.skip(k);
                    if (s.size() == capacity) write_run();
                }
            }
            if (s.size() > 0) write_run();
            if (config.release_input) input.clear();
        });
        report.runs = runs.size();
        report.phases.push_back(phase.finish());
    }

    // The exchange's memory: its buffers, the kept cut pages, and the slice with its imbalance.
    // The two-pass condition: all of it fits in M with a slice of a Bw at least. Where it does
    // not, no cut page is kept (a page kept for some pieces and not others saves little, and the
    // slices get the memory: fewer rounds, fewer cuts).
    const std::uint64_t n = report.global_items;
    report.global_runs = all_sum(c, report.runs);
    report.imbalance_bound_items = (report.global_runs + 1) * per_page;
    const std::uint64_t after_buffers = config.memory - exchange_fixed_memory<T>(b, ranks);
    const std::uint64_t imbalance_bytes = report.imbalance_bound_items * sizeof(T);
    const std::uint64_t kept_pages_bytes = 3 * rank_count * report.runs * per_page * sizeof(T);
    if (after_buffers >= b.bw + imbalance_bytes + kept_pages_bytes) report.cut_page_memory = kept_pages_bytes;
    const std::uint64_t slice_budget = std::max<std::uint64_t>(
        b.bw, after_buffers - std::min(after_buffers, report.cut_page_memory + imbalance_bytes));
    const std::uint64_t share_bytes = (n + std::uint64_t(ranks) - 1) / std::uint64_t(ranks) * sizeof(T);
    const std::uint64_t slices =
        std::max<std::uint64_t>(1, all_max(c, (share_bytes + slice_budget - 1) / slice_budget));
    report.exchange_rounds = slices;

    // 2. Selection of the P x Q splitters from the runs' page index.
    const std::vector<std::uint64_t> targets = detail::slice_targets(n, ranks, slices);
    std::vector<index_split<T>> splits;
    {
        phase_measure phase("selection", m, c);
        splits = select_index_splitters<T>(c, runs, targets, per_page, before, config.selection_batch,
                                           &report.selection);
        report.phases.push_back(phase.finish());
    }

    // 3. Exchange and merge, one slice of every output share per round.
    {
        phase_measure phase("exchange and merge", m, c);
        cut_pages<T, Before, run_type> cuts(runs, std::move(splits), me, before, report.cut_page_memory,
                                            &account);
        const std::uint64_t piece_items = std::max<std::uint64_t>(1, b.bw / sizeof(T));
        report.piece_bytes = piece_items * sizeof(T);
        std::unique_ptr<typename vector<T>::stream_writer> out;
        agree_on_failure(c, "output", [&] {
            out = std::make_unique<typename vector<T>::stream_writer>(output, &account);
        });
        for (std::uint64_t q = 0; q < slices; ++q) {
            // What each destination gets from each of this rank's runs, and what each sender sends here.
            std::vector<byte_buffer> lengths(rank_count);
            std::vector<std::vector<std::uint64_t>> from(rank_count), to(rank_count);
            std::uint64_t most_steps = 0;
            agree_on_failure(c, "exchange", [&] {
                for (int j = 0; j < ranks; ++j) {
                    const std::size_t t = std::size_t(j) * slices + q;
                    from[std::size_t(j)] = cuts.cut(t);
                    to[std::size_t(j)] = cuts.cut(t + 1);
                    std::vector<std::uint64_t> len;
                    std::uint64_t items = 0;
                    for (std::size_t s = 0; s < runs.size(); ++s) {
                        len.push_back(to[std::size_t(j)][s] - from[std::size_t(j)][s]);
                        items += len.back();
                    }
                    lengths[std::size_t(j)] = to_bytes(len);
                    most_steps = std::max(most_steps, (items + piece_items - 1) / piece_items);
                }
            });
            std::vector<std::vector<std::uint64_t>> incoming;
            for (const byte_buffer& heard : c.all_to_all(lengths))
                incoming.push_back(from_bytes<std::uint64_t>(heard));
            std::vector<std::uint64_t> region(rank_count + 1, 0);
            for (int i = 0; i < ranks; ++i) {
                std::uint64_t items = 0;
                for (std::uint64_t len : incoming[std::size_t(i)])
                    items += len;
                region[std::size_t(i) + 1] = region[std::size_t(i)] + items;
            }
            std::vector<T> slice(region.back());
            std::vector<std::uint64_t> filled(rank_count, 0);
            using sender_type = detail::outgoing_pieces<T, run_type, cut_pages<T, Before, run_type>>;
            std::vector<sender_type> senders;
            for (int j = 0; j < ranks; ++j)
                senders.emplace_back(runs, cuts, from[std::size_t(j)], to[std::size_t(j)],
                                     exchange_prefetch(b), &account);
            const std::uint64_t steps = all_max(c, most_steps);
            for (std::uint64_t step = 0; step < steps; ++step) {
                std::vector<byte_buffer> pieces(rank_count);
                agree_on_failure(c, "exchange", [&] {
                    for (int j = 0; j < ranks; ++j)
                        senders[std::size_t(j)].append(pieces[std::size_t(j)], piece_items);
                });
                for (int j = 0; j < ranks; ++j) {
                    report.exchanged_bytes += pieces[std::size_t(j)].size();
                    if (j != me) report.sent_bytes += pieces[std::size_t(j)].size();
                }
                std::vector<byte_buffer> got = c.all_to_all(pieces);
                for (int i = 0; i < ranks; ++i) {
                    const byte_buffer& g = got[std::size_t(i)];
                    if (g.empty()) continue; // nothing from rank i this step (and no buffer to copy from)
                    std::memcpy(
                        static_cast<void*>(slice.data() + region[std::size_t(i)] + filled[std::size_t(i)]),
                        g.data(), g.size());
                    filled[std::size_t(i)] += g.size() / sizeof(T);
                }
                ++report.exchange_steps;
            }
            senders.clear();
            for (int j = 0; j < ranks; ++j)
                cuts.piece_done(std::size_t(j) * slices + q);
            agree_on_failure(c, "merge", [&] {
                std::vector<std::pair<T*, T*>> pieces_in_slice;
                for (int i = 0; i < ranks; ++i) {
                    T* p = slice.data() + region[std::size_t(i)];
                    for (std::uint64_t len : incoming[std::size_t(i)]) {
                        if (len > 0) pieces_in_slice.emplace_back(p, p + len);
                        p += len;
                    }
                }
                std::uint64_t left = slice.size();
                while (left > 0) {
                    const std::uint64_t k = std::min(left, out->free_run());
                    merge_sorted(pieces_in_slice, out->free_begin(), k, before);
                    out->commit(k);
                    left -= k;
                }
            });
        }
        agree_on_failure(c, "output", [&] { out->finish(); });
        report.cut_pages_read = cuts.pages_read();
        report.cut_pages_not_kept = cuts.pages_not_kept();
        report.cut_page_peak = cuts.peak_bytes();
        report.phases.push_back(phase.finish());
    }
    runs.clear();
    report.output_items = output.size();
    return report;
}

} // namespace flashxxl::distributed
