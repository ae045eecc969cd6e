// Entry point of the flashxxl CLI: dispatches to the subcommands of src/cmd_*.cpp; maps errors to exit codes.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "did_you_mean.hpp"
#include "flashxxl/error.hpp"
#include "invocation.hpp"
#include "option_checks.hpp"
#include "out_of_space_hint.hpp"
#include "reported_failure.hpp"
#include "stxxl_messages.hpp"

namespace {

// The exit codes, as --help and the README state them.
constexpr int exit_success = 0;
constexpr int exit_runtime_error = 1;
constexpr int exit_usage_error = 2;

constexpr const char* exit_status_help =
    "Exit status: 0 success; 1 runtime error (an I/O failure of a device or file, out of space, a failed "
    "output "
    "check, out of memory, an interrupt); 2 usage error: an invalid or missing option or "
    "command, or a path named on the command line that does not fit its place: an input (machine config, "
    "experiment file, model parameter, edge list, block device) that is missing, empty, a directory or "
    "malformed, "
    "or an output path that is empty, must not be written (a device, FIFO, link, a file flashxxl did not "
    "write) or "
    "is a file where a directory is expected (characterize --out, reproduce --out, --plot). Every command "
    "follows "
    "this rule.";

// A report that could not be written (stdout on a full disk, a closed pipe's file) is a runtime
// error, not a success: flushes std::cout and stdout and says why they failed.
int finish_standard_output() {
    std::cout.flush();
    bool stream_ok = static_cast<bool>(std::cout);
    errno = 0;
    bool stdio_ok = std::fflush(stdout) == 0 && !std::ferror(stdout);
    if (stream_ok && stdio_ok) return exit_success;
    int e = errno;
    std::cerr << "flashxxl: error: writing standard output failed"
              << (e != 0 ? std::string(": ") + std::strerror(e) : "") << "; the output is incomplete\n";
    return exit_runtime_error;
}

//! Whether argv's first word is neither an option nor one of `app`'s commands.
bool names_unknown_command(CLI::App& app, int argc, char** argv) {
    if (argc < 2 || argv[1][0] == '\0' || argv[1][0] == '-') return false;
    for (CLI::App* s : app.get_subcommands(std::function<bool(CLI::App*)>()))
        if (s->get_name() == argv[1]) return false;
    return true;
}

} // namespace

int main(int argc, char** argv) {
    // STXXL writes stxxl.log / stxxl.errlog into the working directory unless told otherwise.
    setenv("STXXLLOGFILE", "/dev/null", 0);
    setenv("STXXLERRLOGFILE", "/dev/null", 0);
    // STXXL prints its messages on std::cout: move them to stderr so that stdout holds only our output.
    flashxxl::cli::scoped_stxxl_message_filter stxxl_messages;
    flashxxl::cli::record_invocation(argc, argv);

    CLI::App app{"flashxxl: external memory algorithms for flash, HDD and hybrid machines"};
    app.require_subcommand(1);
    app.set_version_flag("--version", std::string("flashxxl ") + flashxxl::cli::version());
    app.footer(exit_status_help);
    flashxxl::cli::register_machine_command(app);
    flashxxl::cli::register_gen_command(app);
    flashxxl::cli::register_characterize_command(app);
    flashxxl::cli::register_sort_command(app);
    flashxxl::cli::register_dsort_command(app);
    flashxxl::cli::register_pq_command(app);
    flashxxl::cli::register_bfs_command(app);
    flashxxl::cli::register_dfs_command(app);
    flashxxl::cli::register_placement_command(app);
    flashxxl::cli::register_btree_command(app);
    flashxxl::cli::register_reproduce_command(app);
    flashxxl::cli::check_numeric_options(app); // after every command is registered
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (names_unknown_command(app, argc, argv)) { // not CLI11's "A subcommand is required"
            std::vector<std::string> lines = flashxxl::cli::did_you_mean(app, argc, argv);
            std::cerr << "flashxxl: error: " << lines.front() << "\n";
            for (std::size_t i = 1; i < lines.size(); ++i)
                std::cerr << lines[i] << "\n";
            return exit_usage_error;
        }
        int code = app.exit(e);
        if (code != 0)
            for (const std::string& line : flashxxl::cli::did_you_mean(app, argc, argv))
                std::cerr << line << "\n";
        return code == 0 ? exit_success : exit_usage_error;
    } catch (const flashxxl::cli::reported_failure& f) { // printed by the command (dsort: on every rank)
        return f.exit_status;
    } catch (const flashxxl::config_error& e) { // options, configs, experiment files, model parameters
        std::cerr << "flashxxl: error: " << e.what() << "\n";
        return exit_usage_error;
    } catch (const flashxxl::input_error& e) { // edge lists
        std::cerr << "flashxxl: error: " << e.what() << "\n";
        return exit_usage_error;
    } catch (const flashxxl::refused_output& e) { // an output path that must not be written
        std::cerr << "flashxxl: error: " << e.what() << "\n";
        return exit_usage_error;
    } catch (const flashxxl::out_of_space& e) {
        std::cerr << "flashxxl: error: " << e.what() << "\n"
                  << "flashxxl: hint: " << flashxxl::cli::out_of_space_hint(e) << "\n";
        return exit_runtime_error;
    } catch (const flashxxl::error& e) {
        std::cerr << "flashxxl: error: " << e.what() << "\n";
        return exit_runtime_error;
    } catch (const std::bad_alloc&) {
        std::cerr << "flashxxl: error: out of memory: an allocation failed beyond the checked budgets; lower "
                     "--memory (or the problem size) or free memory on this machine\n";
        return exit_runtime_error;
    } catch (const std::exception& e) {
        std::cerr << "flashxxl: error: " << e.what() << "\n";
        return exit_runtime_error;
    }
    return finish_standard_output();
}
