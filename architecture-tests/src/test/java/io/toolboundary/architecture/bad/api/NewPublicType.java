package io.toolboundary.architecture.bad.api;

/** A public type that no listing knows: the API check must report it and its public nested type. */
public final class NewPublicType {

    private NewPublicType() {
    }

    /** Public inside a public type: part of the API as much as its outer type. */
    public static final class Nested {
        private Nested() {
        }
    }

    /** Package-private: not part of the API. */
    static final class Hidden {
        private Hidden() {
        }
    }
}
