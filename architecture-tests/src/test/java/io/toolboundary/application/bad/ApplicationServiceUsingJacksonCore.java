package io.toolboundary.application.bad;

import com.fasterxml.jackson.core.JsonFactory;
import io.toolboundary.domain.RunId;
import io.vavr.control.Either;

/** Breaks the application rule (which reads JSON with its own parser): Jackson, here its core; follows every other rule. */
public final class ApplicationServiceUsingJacksonCore {

    private final JsonFactory json = new JsonFactory();

    String formatName() {
        return json.getFormatName();
    }

    Either<?, RunId> run(String id) {
        return RunId.of(id);
    }
}
