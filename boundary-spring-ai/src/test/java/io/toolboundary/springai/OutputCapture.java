package io.toolboundary.springai;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Captures what a test writes to {@code System.out} (Spring Boot's console log included), still showing it,
 * and gives it to the test as a {@link Captured} parameter. Spring Boot's own {@code OutputCaptureExtension}
 * needs JUnit 6 from Spring Boot 4 on; this one runs on the project's JUnit 5 on both Spring lines.
 */
public final class OutputCapture implements BeforeEachCallback, AfterEachCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(OutputCapture.class);

    /** Created by JUnit. */
    public OutputCapture() {
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        captured(context);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Captured captured = context.getStore(NAMESPACE).remove(Captured.class, Captured.class);
        if (captured != null) {
            System.setOut(captured.original);
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == Captured.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return captured(context);
    }

    private static Captured captured(ExtensionContext context) {
        return context.getStore(NAMESPACE).getOrComputeIfAbsent(Captured.class, type -> new Captured(), Captured.class);
    }

    /** What the test has written to {@code System.out} so far. */
    public static final class Captured {

        private final PrintStream original = System.out;
        private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();

        private Captured() {
            OutputStream both = new OutputStream() {
                @Override
                public void write(int b) {
                    original.write(b);
                    synchronized (buffer) {
                        buffer.write(b);
                    }
                }

                @Override
                public void write(byte[] bytes, int offset, int length) {
                    original.write(bytes, offset, length);
                    synchronized (buffer) {
                        buffer.write(bytes, offset, length);
                    }
                }
            };
            System.setOut(new PrintStream(both, true, StandardCharsets.UTF_8));
        }

        /**
         * The text written so far.
         *
         * @return everything written to {@code System.out} since the test started
         */
        public String getOut() {
            synchronized (buffer) {
                return buffer.toString(StandardCharsets.UTF_8);
            }
        }
    }
}
