package io.toolboundary.domain;

/** Texts the domain's tests build. */
final class TestTexts {

    private TestTexts() {
    }

    /** {@return one character that takes {@code width} bytes in UTF-8, 1 to 4} */
    static String charOfWidth(int width) {
        return switch (width) {
            case 1 -> "a";
            case 2 -> "é";
            case 3 -> "€";
            case 4 -> "😀";
            default -> throw new IllegalArgumentException("width must be 1 to 4, was " + width);
        };
    }
}
