package io.toolboundary.tck.reliability.history;

import static java.util.Objects.requireNonNull;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.Function;

/**
 * The operations of one process, or the merge of several processes' histories: safe for concurrent recording;
 * written to a file one operation a line (process, thread, invoke, return or {@code open}, input, output,
 * separated by tabs) and read back, so that a parent process can merge the files of its children.
 *
 * @param <I> what an operation asks
 * @param <O> what it answers
 */
public final class History<I, O> {

    private final List<Operation<I, O>> operations = new ArrayList<>();

    /** An empty history. */
    public History() {
    }

    /**
     * Records one operation.
     *
     * @param operation the operation
     */
    public synchronized void add(Operation<I, O> operation) {
        operations.add(requireNonNull(operation, "operation is null"));
    }

    /** {@return a copy of the operations recorded so far, in the order they were recorded} */
    public synchronized List<Operation<I, O>> operations() {
        return List.copyOf(operations);
    }

    /** {@return how many operations were recorded} */
    public synchronized int size() {
        return operations.size();
    }

    /**
     * {@return one history of every operation of {@code histories}}
     *
     * @param <I> what an operation asks
     * @param <O> what it answers
     * @param histories the histories, for example one per process
     */
    public static <I, O> History<I, O> merge(Collection<History<I, O>> histories) {
        History<I, O> merged = new History<>();
        for (History<I, O> history : histories) {
            for (Operation<I, O> op : history.operations()) {
                merged.add(op);
            }
        }
        return merged;
    }

    /**
     * Writes the history to {@code file}, replacing it.
     *
     * @param file where
     * @param input an input as one line of text without tabs
     * @param output an output as one line of text without tabs
     */
    public void write(Path file, Function<I, String> input, Function<O, String> output) {
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (Operation<I, O> op : operations()) {
                out.write(op.process() + "\t" + op.thread() + "\t" + op.invokedAt() + "\t"
                        + (op.undetermined() ? "open" : Long.toString(op.returnedAt())) + "\t"
                        + field(input.apply(op.input())) + "\t"
                        + (op.undetermined() ? "?" : field(output.apply(op.output()))));
                out.newLine();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@return the history {@link #write} wrote to {@code file}}
     *
     * @param <I> what an operation asks
     * @param <O> what it answers
     * @param file the file
     * @param input reads an input back
     * @param output reads an output back
     */
    public static <I, O> History<I, O> read(Path file, Function<String, I> input, Function<String, O> output) {
        History<I, O> history = new History<>();
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (line.isEmpty()) {
                    continue;
                }
                String[] f = line.split("\t", -1);
                boolean open = f[3].equals("open");
                history.add(new Operation<>(Integer.parseInt(f[0]), f[1], Long.parseLong(f[2]),
                        open ? Operation.OPEN : Long.parseLong(f[3]), input.apply(f[4]),
                        open ? null : output.apply(f[5])));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return history;
    }

    private static String field(String text) {
        if (text.indexOf('\t') >= 0 || text.indexOf('\n') >= 0 || text.indexOf('\r') >= 0) {
            throw new IllegalArgumentException("a field holds a tab or a line break: " + text);
        }
        return text;
    }
}
