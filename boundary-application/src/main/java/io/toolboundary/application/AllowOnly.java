package io.toolboundary.application;

import io.toolboundary.domain.ToolName;
import java.util.Set;
import java.util.TreeSet;

/**
 * The policy {@link AccessPolicy#allowOnly} builds: it grants the {@code allowed} tools and denies every other,
 * and its names can be checked against the tools a boundary registers.
 */
record AllowOnly(Set<ToolName> allowed) implements AccessPolicy {

    AllowOnly {
        allowed = Set.copyOf(allowed);
    }

    @Override
    public boolean allows(RunContext run, ToolName tool) {
        return allowed.contains(tool);
    }

    /** Refuses, naming them in order, the names no tool of {@code registered} has. */
    void requireRegistered(Set<ToolName> registered) {
        Set<String> unknown = new TreeSet<>();
        allowed.stream().filter(name -> !registered.contains(name)).forEach(name -> unknown.add(name.value()));
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("AccessPolicy.allowOnly names tools the boundary does not register: "
                    + unknown + "; register them with ToolBoundaryBuilder.tool or correct the names");
        }
    }
}
