package io.toolboundary.domain;

import static java.util.Objects.requireNonNull;

import io.vavr.control.Either;

/**
 * A tool's complete raw response, checked once to be text that UTF-8 keeps exactly and measured once in
 * UTF-8 bytes, so that the limits, the record and the store use its size without counting it again.
 * Harness-only data: it is never given to the agent.
 */
public final class RawResponse {

    private final String text;
    private final long byteSize;

    private RawResponse(String text, long byteSize) {
        this.text = text;
        this.byteSize = byteSize;
    }

    /**
     * Checks and measures a raw response.
     *
     * @param text the raw response as the tool returned it
     * @return the raw response, or {@link ErrorCode#TEXT_NOT_UNICODE} when it has a lone surrogate
     */
    public static Either<BoundaryError, RawResponse> of(String text) {
        requireNonNull(text, "text is null");
        long bytes = Utf8.wellFormedByteLength(text);
        return bytes < 0
                ? Either.left(BoundaryError.of(ErrorCode.TEXT_NOT_UNICODE))
                : Either.right(new RawResponse(text, bytes));
    }

    /** {@return the complete text, unchanged} */
    public String text() {
        return text;
    }

    /** {@return the text's size in UTF-8 bytes} */
    public long byteSize() {
        return byteSize;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RawResponse that && text.equals(that.text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    /** {@return the size only: a raw response is harness-only data and is never written to a log by accident} */
    @Override
    public String toString() {
        return "RawResponse[" + byteSize + " bytes]";
    }
}
