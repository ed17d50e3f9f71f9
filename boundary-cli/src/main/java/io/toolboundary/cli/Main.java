package io.toolboundary.cli;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/** The entry point of {@code java -jar toolboundary.jar}. */
public final class Main {

    private Main() {
    }

    /**
     * Runs one command and exits with its code: 0 ok, 1 usage error, 2 Redis unreachable, 3 findings.
     *
     * @param args the command line
     */
    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
        int code = Toolboundary.run(args, out, err, System.getenv(), Toolboundary.systemConsole());
        out.flush();
        err.flush();
        System.exit(code);
    }
}
