package io.toolboundary.domain.bad;

import org.slf4j.Logger;

/** Breaks the domain rules: it holds a logging framework type. */
public final class DomainValueHoldingAFrameworkType {

    private final Logger logger;

    DomainValueHoldingAFrameworkType(Logger logger) {
        this.logger = logger;
    }

    String loggerName() {
        return logger.getName();
    }
}
