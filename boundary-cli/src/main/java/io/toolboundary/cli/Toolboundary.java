package io.toolboundary.cli;

import java.io.Console;
import java.io.PrintWriter;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The top command, {@code toolboundary}, and the runner that maps outcomes to exit codes.
 */
@Command(name = "toolboundary", mixinStandardHelpOptions = true, version = "toolboundary 0.1.0",
        description = "Looks at the canonical records a Tool Boundary Redis store holds, ends abandoned ones, "
                + "and exports final records to the application's SQL database.",
        subcommands = {RunsCommand.class, RecordsCommand.class, ShowCommand.class, AbandonCommand.class,
            DoctorCommand.class, ExportCommand.class, AuditCommand.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:ok", "1:usage error", "2:Redis or the database unreachable (or failing)",
            "3:findings (doctor)"})
public final class Toolboundary implements Runnable {

    /** Exit code: done. */
    public static final int OK = 0;
    /** Exit code: the command line is wrong. */
    public static final int USAGE = 1;
    /** Exit code: Redis or the audit database could not be reached or used. */
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
     * @param env the environment, for {@code TOOLBOUNDARY_REDIS_PASSWORD} and {@code TOOLBOUNDARY_JDBC_PASSWORD}
     * @param console the console a password is read from without echo, when there is one
     * @return the exit code
     */
    public static int run(String[] args, PrintWriter out, PrintWriter err, Map<String, String> env,
            PasswordConsole console) {
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
     * @return the console's password reader, which answers empty when there is no console
     */
    public static PasswordConsole systemConsole() {
        return prompt -> {
            Console console = System.console();
            return console == null ? Optional.empty() : Optional.ofNullable(console.readPassword("%s", prompt));
        };
    }

    /**
     * Where a password is typed without echo: the system console, or a test's stand-in.
     */
    @FunctionalInterface
    public interface PasswordConsole {

        /**
         * Asks for a password.
         *
         * @param prompt what the console shows first, for example {@code "Redis password: "}
         * @return the password typed, or empty when there is no console to ask on
         */
        Optional<char[]> read(String prompt);

        /** {@return a console that is never there, as in a job without a terminal} */
        static PasswordConsole none() {
            return prompt -> Optional.empty();
        }
    }
}
