package io.toolboundary.domain.bad;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Breaks the domain rules: its only Jackson reference is an annotation on a component. */
public record DomainValueAnnotatedForJackson(@JsonProperty("id") String id) {
}
