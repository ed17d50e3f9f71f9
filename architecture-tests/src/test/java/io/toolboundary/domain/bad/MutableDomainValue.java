package io.toolboundary.domain.bad;

/** Breaks "domain fields are final": its counter can change after construction. */
public final class MutableDomainValue {

    private int count;

    void increment() {
        count++;
    }

    int count() {
        return count;
    }
}
