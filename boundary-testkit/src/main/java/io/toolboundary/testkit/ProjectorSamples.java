package io.toolboundary.testkit;

import static java.util.Objects.requireNonNull;

import io.toolboundary.application.Projector;
import io.toolboundary.application.ToolRequest;
import io.toolboundary.domain.InvocationKey;
import io.toolboundary.domain.RunId;
import io.toolboundary.domain.ToolCallId;
import io.toolboundary.domain.ToolName;
import java.util.List;
import java.util.Random;

/**
 * The samples {@link ProjectorContract} feeds a projector beyond the team's own: the non-ASCII runs, the
 * credential lines, the filler of the large request, and the request every sample goes with. The
 * contract publishes each of them under its own name; this class only holds them.
 */
final class ProjectorSamples {

    /** See {@link ProjectorContract#NON_ASCII_CHARACTERS}. */
    static final List<String> NON_ASCII_CHARACTERS = List.of("\u00e9", "\u20ac", "\uD83D\uDE00",
            "a\u00e9\u20ac\uD83D\uDE00");

    /** See {@link ProjectorContract#CREDENTIAL_LINES}: {@code {line, secret}} pairs. */
    static final List<List<String>> CREDENTIAL_LINES = List.of(
            List.of("password=Pw7rTq2Lk9Xz", "Pw7rTq2Lk9Xz"),
            List.of("passwd: Pd4kLm8Qs2Vn", "Pd4kLm8Qs2Vn"),
            List.of("login ok pwd=Pw3nXq8Rt5Jk", "Pw3nXq8Rt5Jk"),
            List.of("Authorization: Bearer eyBt5Kq9Lm2Xw7Rz4Vn8", "eyBt5Kq9Lm2Xw7Rz4Vn8"),
            List.of("called upstream with bearer Bt8Xk2Qm7Lp4Wz9R", "Bt8Xk2Qm7Lp4Wz9R"),
            List.of("aws_access_key_id=AKIAQ3EXMPL7W2RZ5T6Y", "AKIAQ3EXMPL7W2RZ5T6Y"),
            List.of("aws_secret_access_key=wK9rTq2Lx8/Zm4Vn7Pb3+Hs6Jd1Fg5Ck0Ye2Xa8Nu",
                    "wK9rTq2Lx8/Zm4Vn7Pb3+Hs6Jd1Fg5Ck0Ye2Xa8Nu"),
            List.of("api_key=Ak5Lm9Qx2Rt7Wz3V", "Ak5Lm9Qx2Rt7Wz3V"),
            List.of("token=Tk8Qz3Lm6Xr1Wv9P", "Tk8Qz3Lm6Xr1Wv9P"),
            List.of("secret=Sc2Vx7Lq4Mz9Rk1T", "Sc2Vx7Lq4Mz9Rk1T"),
            List.of("cache redis://default:Rd6Kq1Xm8Lz3Vt5W@cache:6379/0", "Rd6Kq1Xm8Lz3Vt5W"),
            List.of("db postgres://orders:Pg9Lx4Qm2Wz7Rk3V@db:5432/orders", "Pg9Lx4Qm2Wz7Rk3V"),
            List.of("db mysql://root:My3Qx8Lk5Wz2Rv7T@db:3306/shop", "My3Qx8Lk5Wz2Rv7T"),
            List.of("url jdbc:mysql://app:Jd7Wk2Lq9Xz4Rm6V@db:3306/shop", "Jd7Wk2Lq9Xz4Rm6V"));

    private ProjectorSamples() {
    }

    /** See {@link ProjectorContract#nonAsciiRun(String, int, long)}. */
    static String nonAsciiRun(String characters, int alignment, long limitBytes) {
        requireNonNull(characters, "characters is null");
        long each = Math.max(1, Projector.utf8Length(characters));
        return "x".repeat(alignment) + characters.repeat((int) ((limitBytes + limitBytes / 2) / each + 1));
    }

    /** See {@link ProjectorContract#echoFiller(int)}. */
    static String echoFiller(int chars) {
        String alphabet = "abcdefghijkmnopqrstuvwxyz23456789";
        Random random = new Random(60_1024L);
        StringBuilder filler = new StringBuilder(chars);
        for (int i = 0; i < chars; i++) {
            filler.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return filler.toString();
    }

    /** See {@link ProjectorContract#sampleRequest(String, String)}. */
    static ToolRequest sampleRequest(String toolName, String arguments) {
        InvocationKey key = InvocationKey.of(new RunId(Fixtures.anyRunId()), new ToolCallId(Fixtures.anyToolCallId()));
        return new ToolRequest(key, new ToolName(toolName), arguments);
    }

    /**
     * The line of {@link #CREDENTIAL_LINES} that carries {@code secret}, with the secret replaced by
     * {@code <secret>}, so that a failure names the shape of the line without repeating the credential.
     */
    static String credentialShape(String secret) {
        return CREDENTIAL_LINES.stream().filter(c -> c.get(1).equals(secret)).map(c -> c.get(0))
                .findFirst().orElse("a credential").replace(secret, "<secret>");
    }
}
