// Entry point of the flashxxl CLI: dispatches to the subcommands of src/cmd_*.cpp.
#include <cstdlib>
#include <exception>
#include <iostream>

#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "flashxxl/error.hpp"

int main(int argc, char** argv) {
    // STXXL writes stxxl.log / stxxl.errlog into the working directory unless told otherwise.
    setenv("STXXLLOGFILE", "/dev/null", 0);
    setenv("STXXLERRLOGFILE", "/dev/null", 0);

    CLI::App app{"flashxxl: external memory algorithms for flash, HDD and hybrid machines"};
    app.require_subcommand(1);
    flashxxl::cli::register_machine_command(app);
    flashxxl::cli::register_gen_command(app);
    flashxxl::cli::register_characterize_command(app);
    flashxxl::cli::register_sort_command(app);
    flashxxl::cli::register_pq_command(app);
    flashxxl::cli::register_bfs_command(app);
    flashxxl::cli::register_dfs_command(app);
    flashxxl::cli::register_placement_command(app);
    flashxxl::cli::register_btree_command(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    } catch (const flashxxl::error& e) {
        std::cerr << "flashxxl: error: " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "flashxxl: unexpected error: " << e.what() << "\n";
        return 3;
    }
    return 0;
}
