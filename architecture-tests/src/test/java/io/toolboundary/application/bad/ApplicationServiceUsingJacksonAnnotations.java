package io.toolboundary.application.bad;

import com.fasterxml.jackson.annotation.JsonIgnore;

/** Breaks the application rule: Jackson (here an annotation). */
public final class ApplicationServiceUsingJacksonAnnotations {

    @JsonIgnore
    private final String secret = "hidden";

    String secret() {
        return secret;
    }
}
