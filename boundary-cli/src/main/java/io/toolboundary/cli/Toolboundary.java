package io.toolboundary.cli;

import java.io.Console;
import java.io.PrintWriter;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The top command, {@code toolboundary}, and the runner that maps outcomes to exit codes.
 */
@Command(name = "toolboundary", mixinStandardHelpOptions = true, version = "toolboundary 0.1.0",
        description = "Looks at the canonical records a Tool Boundary Redis store holds, and ends abandoned ones.",
        subcommands = {RunsCommand.class, RecordsCommand.class, ShowCommand.class, AbandonCommand.class,
            DoctorCommand.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:ok", "1:usage error", "2:Redis unreachable", "3:findings (doctor)"})
public final class Toolboundary implements Runnable {

    /** Exit code: done. */
    public static final int OK = 0;
    /** Exit code: the command line is wrong. */
    public static final int USAGE = 1;
    /** Exit code: Redis could not be reached or used. */
    public static final int UNREACHABLE = 2;
    /** Exit code: {@code doctor} found something to fix. */
    public static final int FINDINGS = 3;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /** Creates the top command; picocli calls it. */
    public Toolboundary() {
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required");
    }

    /**
     * Runs one command line.
     *
     * @param args the arguments
     * @param out where results go
     * @param err where errors go
     * @param env the environment, for {@code TOOLBOUNDARY_REDIS_PASSWORD}
     * @param console the console a password is read from without echo, when there is one
     * @return the exit code
     */
    public static int run(String[] args, PrintWriter out, PrintWriter err, Map<String, String> env,
            Supplier<Optional<char[]>> console) {
        CommandLine line = new CommandLine(new Toolboundary());
        line.setOut(out).setErr(err);
        line.setExitCodeExceptionMapper(failure -> failure instanceof Connection.UnreachableException
                ? UNREACHABLE : USAGE);
        line.setExecutionExceptionHandler((failure, commandLine, parsed) -> {
            if (failure instanceof Connection.UnreachableException unreachable) {
                commandLine.getErr().println("toolboundary: " + unreachable.getMessage());
                return UNREACHABLE;
            }
            if (failure instanceof IllegalArgumentException wrong) {
                commandLine.getErr().println("toolboundary: " + wrong.getMessage());
                return USAGE;
            }
            throw failure;
        });
        line.setParameterExceptionHandler((failure, parsed) -> {
            failure.getCommandLine().getErr().println("toolboundary: " + failure.getMessage());
            failure.getCommandLine().usage(failure.getCommandLine().getErr());
            return USAGE;
        });
        Connection.Environment.set(env, console);
        try {
            return line.execute(args);
        } finally {
            Connection.Environment.clear();
        }
    }

    /**
     * Reads a password from the system console without echo.
     *
     * @return a supplier of the password typed, empty when there is no console
     */
    public static Supplier<Optional<char[]>> systemConsole() {
        return () -> {
            Console console = System.console();
            return console == null ? Optional.empty()
                    : Optional.ofNullable(console.readPassword("Redis password: "));
        };
    }
}
