package io.toolboundary.application.bad;

import com.fasterxml.jackson.core.JsonFactory;
import io.toolboundary.domain.RunId;
import io.vavr.control.Either;

/** Follows the application rule: jackson-core, Vavr, the domain and Java only. */
public final class ApplicationServiceUsingJacksonCore {

    private final JsonFactory json = new JsonFactory();

    String formatName() {
        return json.getFormatName();
    }

    Either<?, RunId> run(String id) {
        return RunId.of(id);
    }
}
