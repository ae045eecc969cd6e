// gnuplot as a child process: started without a shell in the plot's directory, its terminal probed, its
// failure explained.
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

extern char** environ;

namespace flashxxl {

//! How a gnuplot run ended: ok, or why not ("gnuplot exited with status 1").
struct gnuplot_outcome {
    bool ok = false;
    std::string why;
};

//! Runs `gnuplot -e E1 -e E2 ... SCRIPT` with `dir` as its working directory ("" for ours) and
//! waits for it. No shell is involved: a directory, script or expression is passed as one
//! argument whatever characters it holds (a `--out "Bob's run"` used to break the command line,
//! and a crafted one ran commands). gnuplot's standard output goes to /dev/null, its standard
//! error too when `quiet`.
inline gnuplot_outcome run_gnuplot(const std::string& dir, const std::vector<std::string>& expressions,
                                   const std::string& script, bool quiet = true) {
    std::vector<std::string> args{"gnuplot"};
    for (const std::string& e : expressions) {
        args.push_back("-e");
        args.push_back(e);
    }
    if (!script.empty()) args.push_back(script);
    std::vector<char*> argv;
    for (std::string& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (!dir.empty()) posix_spawn_file_actions_addchdir_np(&actions, dir.c_str());
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    if (quiet) posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    pid_t pid = -1;
    const int spawned = ::posix_spawnp(&pid, "gnuplot", &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) return {false, std::string("cannot start gnuplot: ") + std::strerror(spawned)};
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return {false, std::string("waiting for gnuplot failed: ") + std::strerror(errno)};
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {true, ""};
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127 && !dir.empty() && ::access(dir.c_str(), X_OK) != 0)
        return {false, "cannot enter '" + dir + "': " + std::strerror(errno)};
    if (WIFEXITED(status)) {
        if (WEXITSTATUS(status) == 127) return {false, "gnuplot was not found or could not run"};
        return {false, "gnuplot exited with status " + std::to_string(WEXITSTATUS(status))};
    }
    return {false,
            "gnuplot was killed by signal " + std::to_string(WIFSIGNALED(status) ? WTERMSIG(status) : 0)};
}

//! The image terminal this machine's gnuplot has: "pngcairo", else "png", else "svg"; "" without
//! gnuplot.
inline std::string gnuplot_terminal() {
    for (const char* terminal : {"pngcairo", "png", "svg"})
        if (run_gnuplot("", {std::string("set terminal ") + terminal}, "").ok) return terminal;
    return "";
}

//! A string literal for a gnuplot script that shows `text` as it is: double-quoted, with
//! backslashes and double quotes escaped (a single-quoted label holding a quote ended the string
//! early, and what followed ran as gnuplot commands, system() included).
inline std::string gnuplot_quoted(const std::string& text) {
    std::string q = "\"";
    for (char c : text) {
        if (c == '\\' || c == '"') q += '\\';
        if (c == '\n') {
            q += "\\n";
            continue;
        }
        q += c;
    }
    return q + "\"";
}

} // namespace flashxxl
