package io.toolboundary.benchmarks;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Locale;

/**
 * What this machine charges for memory a process writes for the first time. A block fresh from the
 * operating system is allocated and zeroed, then the same pages are written again; the difference is
 * what each new page costs (on a virtual machine, often the host backing it). A server whose memory grows
 * with every call pays it for each page its values take: at 64 KiB a call that is 16 pages, for the
 * boundary and the peer alike.
 *
 * <p>{@code main} prints one line for {@code bench/results/machine.txt}.
 */
final class FreshMemory {

    static final int PAGE_BYTES = 4096;

    private FreshMemory() {
    }

    /**
     * The cost of a 4 KiB page, in microseconds: the median over {@code repeats} blocks.
     *
     * @param first allocated and zeroed, the first write of each page
     * @param again the same pages written again, a page at a time
     * @param mib each block's size
     * @param repeats how many blocks
     */
    record Cost(double first, double again, int mib, int repeats) {

        /** {@return the line machine.txt gets} */
        String line() {
            return String.format(Locale.ROOT, "fresh memory: %s µs per 4 KiB page written first, %s µs written again"
                    + " (%d MiB blocks, median of %d)", Fmt.num(first), Fmt.num(again), mib, repeats);
        }
    }

    /**
     * Allocates, zeroes and writes again {@code repeats} blocks of {@code mib} MiB, one after another.
     *
     * @throws IllegalArgumentException unless {@code mib} is 1 to 1024 and {@code repeats} positive
     */
    static Cost measure(int mib, int repeats) {
        if (mib <= 0 || mib > 1024 || repeats <= 0) {
            throw new IllegalArgumentException("mib must be 1 to 1024 and repeats positive, were " + mib + " and "
                    + repeats);
        }
        int pages = (mib << 20) / PAGE_BYTES;
        byte[] page = new byte[PAGE_BYTES];
        double[] first = new double[repeats];
        double[] again = new double[repeats];
        for (int repeat = 0; repeat < repeats; repeat++) {
            long start = System.nanoTime();
            // A direct buffer is zeroed when it is allocated: every page written for the first time.
            ByteBuffer block = ByteBuffer.allocateDirect(mib << 20);
            long allocated = System.nanoTime();
            for (int at = 0; at < pages; at++) {
                block.put(at * PAGE_BYTES, page);
            }
            long rewritten = System.nanoTime();
            first[repeat] = (allocated - start) / 1e3 / pages;
            again[repeat] = (rewritten - allocated) / 1e3 / pages;
        }
        return new Cost(median(first), median(again), mib, repeats);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    /**
     * Prints the line.
     *
     * @param args the block size in MiB and the number of blocks; 128 and 3 when absent
     */
    public static void main(String[] args) {
        int mib = args.length > 0 ? Integer.parseInt(args[0]) : 128;
        int repeats = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        System.out.println(measure(mib, repeats).line());
    }
}
