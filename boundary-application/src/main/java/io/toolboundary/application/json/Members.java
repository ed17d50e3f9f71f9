package io.toolboundary.application.json;

import java.util.Arrays;

/**
 * The members of the objects {@link CanonicalJson} has open, as a stack: where each member's bytes
 * start in the output and its decoded name (UTF-16 code units, in one shared char buffer). When an
 * object closes, its members are sorted by name as {@link String#compareTo} sorts (by UTF-16 code
 * units), a duplicate name is found, and the members' bytes are moved into that order; then they
 * leave the stack.
 */
final class Members {

    /** Below this many members an insertion sort beats a merge sort. */
    private static final int INSERTION_SORT_UP_TO = 12;
    /** Buffers above these sizes are dropped after a call, so that one large document does not stay. */
    private static final int KEPT_MEMBERS = 1 << 11;
    private static final int KEPT_NAME_CHARS = 1 << 14;
    private static final int KEPT_BYTES = 1 << 16;

    private int[] start = new int[32];
    private int[] nameStart = new int[32];
    private int count;
    private char[] names = new char[256];
    private int namesSize;
    private int[] order = new int[32];
    private int[] merged = new int[32];
    private byte[] moved = new byte[256];

    int count() {
        return count;
    }

    void clear() {
        count = 0;
        namesSize = 0;
    }

    /** Lets go of buffers a large document grew. */
    void trim() {
        if (start.length > KEPT_MEMBERS) {
            start = new int[32];
            nameStart = new int[32];
            order = new int[32];
            merged = new int[32];
        }
        if (names.length > KEPT_NAME_CHARS) {
            names = new char[256];
        }
        if (moved.length > KEPT_BYTES) {
            moved = new byte[256];
        }
    }

    /** A member of the innermost open object begins at {@code outAt}; its name's code units follow. */
    void add(int outAt) {
        if (count == start.length) {
            start = Arrays.copyOf(start, count * 2);
            nameStart = Arrays.copyOf(nameStart, count * 2);
        }
        start[count] = outAt;
        nameStart[count] = namesSize;
        count++;
    }

    /** Characters {@code [from, to)} of {@code text}, code units of the name of the last member added. */
    void nameChars(String text, int from, int to) {
        int length = to - from;
        if (names.length - namesSize < length) {
            names = Arrays.copyOf(names, Math.max(names.length * 2, namesSize + length));
        }
        text.getChars(from, to, names, namesSize);
        namesSize += length;
    }

    /** One UTF-16 code unit of the name of the last member added. */
    void nameChar(char c) {
        if (namesSize == names.length) {
            names = Arrays.copyOf(names, namesSize * 2);
        }
        names[namesSize++] = c;
    }

    /**
     * {@return false when two members have the same name} Else closes the innermost open object (members
     * {@code [first, count)}, bytes ending at {@code end}, each {@code "name":value}, separated by commas), moving the
     * members' bytes into name order.
     */
    boolean close(int first, byte[] out, int end) {
        int members = count - first;
        boolean ordered = true;
        for (int k = first + 1; k < count && ordered; k++) {
            int comparison = compare(k - 1, k);
            if (comparison == 0) {
                return false;
            }
            ordered = comparison < 0;
        }
        if (!ordered) {
            if (!sort(first, members)) {
                return false;
            }
            move(first, members, out, end);
        }
        if (members > 0) {
            namesSize = nameStart[first];
        }
        count = first;
        return true;
    }

    /** Sorts the indexes {@code [first, first + members)} into {@link #order}; false on a duplicate name. */
    private boolean sort(int first, int members) {
        if (order.length < members) {
            order = new int[Math.max(members, order.length * 2)];
            merged = new int[order.length];
        }
        for (int k = 0; k < members; k++) {
            order[k] = first + k;
        }
        if (members <= INSERTION_SORT_UP_TO) {
            insertionSort(0, members);
        } else {
            mergeSort(members);
        }
        for (int k = 1; k < members; k++) {
            if (compare(order[k - 1], order[k]) == 0) {
                return false;
            }
        }
        return true;
    }

    private void insertionSort(int from, int to) {
        for (int k = from + 1; k < to; k++) {
            int member = order[k];
            int at = k - 1;
            while (at >= from && compare(order[at], member) > 0) {
                order[at + 1] = order[at];
                at--;
            }
            order[at + 1] = member;
        }
    }

    /** Bottom-up: runs of {@value #INSERTION_SORT_UP_TO} sorted in place, then merged pairwise. */
    private void mergeSort(int members) {
        for (int from = 0; from < members; from += INSERTION_SORT_UP_TO) {
            insertionSort(from, Math.min(members, from + INSERTION_SORT_UP_TO));
        }
        int[] source = order;
        int[] target = merged;
        for (int width = INSERTION_SORT_UP_TO; width < members; width *= 2) {
            for (int from = 0; from < members; from += 2 * width) {
                int middle = Math.min(members, from + width);
                int to = Math.min(members, from + 2 * width);
                int left = from;
                int right = middle;
                for (int k = from; k < to; k++) {
                    target[k] = right >= to || left < middle && compare(source[left], source[right]) <= 0
                            ? source[left++] : source[right++];
                }
            }
            int[] swap = source;
            source = target;
            target = swap;
        }
        if (source != order) {
            System.arraycopy(source, 0, order, 0, members);
        }
    }

    /** Rewrites the object's member bytes in {@link #order}, separated by commas as before. */
    private void move(int first, int members, byte[] out, int end) {
        int from = start[first];
        int length = end - from;
        if (moved.length < length) {
            moved = new byte[Math.max(length, moved.length * 2)];
        }
        System.arraycopy(out, from, moved, 0, length);
        int at = from;
        for (int k = 0; k < members; k++) {
            int member = order[k];
            int memberEnd = member + 1 < count ? start[member + 1] - 1 : end;
            int memberLength = memberEnd - start[member];
            if (k > 0) {
                out[at++] = ',';
            }
            System.arraycopy(moved, start[member] - from, out, at, memberLength);
            at += memberLength;
        }
    }

    /** Compares two members' names by UTF-16 code units, as {@link String#compareTo} does. */
    private int compare(int a, int b) {
        int aStart = nameStart[a];
        int bStart = nameStart[b];
        int aLength = nameEnd(a) - aStart;
        int bLength = nameEnd(b) - bStart;
        int common = Math.min(aLength, bLength);
        for (int k = 0; k < common; k++) {
            char x = names[aStart + k];
            char y = names[bStart + k];
            if (x != y) {
                return x - y;
            }
        }
        return aLength - bLength;
    }

    private int nameEnd(int member) {
        return member + 1 < count ? nameStart[member + 1] : namesSize;
    }
}
