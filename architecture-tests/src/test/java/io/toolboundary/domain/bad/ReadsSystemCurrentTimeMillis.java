package io.toolboundary.domain.bad;

/** Breaks "the domain never reads the clock" with {@code System.currentTimeMillis()}. */
final class ReadsSystemCurrentTimeMillis {

    long stamp() {
        return System.currentTimeMillis();
    }
}
