package io.toolboundary.testkit.bad;

import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/** Breaks the testkit rule: a fixture that starts a container, dragging Testcontainers onto every projector team's class path. */
public final class TestkitFixtureUsingTestcontainers {

    private TestkitFixtureUsingTestcontainers() {
    }

    static GenericContainer<?> redis() {
        return new GenericContainer<>(DockerImageName.parse("redis:7-alpine"));
    }
}
