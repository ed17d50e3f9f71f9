package io.toolboundary.application;

import static java.util.Objects.requireNonNull;

import io.toolboundary.domain.ToolName;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The harness's decision whether a run may call a tool. Never derived from the agent's envelope.
 */
@FunctionalInterface
public interface AccessPolicy {

    /**
     * Decides access. Called during preflight, before any record exists. An exception counts as a denial.
     *
     * @param run the run
     * @param tool a registered tool
     * @return true when the run may call the tool
     */
    boolean allows(RunContext run, ToolName tool);

    /** {@return a policy that grants every registered tool to every run} */
    static AccessPolicy allowAll() {
        return (run, tool) -> true;
    }

    /**
     * Grants only the named tools. A boundary built with this policy refuses, when it is built, a name it
     * does not register, so that a misspelt name is found at start rather than as
     * {@code TOOL_NOT_AUTHORIZED} on every call of the tool meant.
     *
     * @param toolNames the names of the tools to grant; each must be a valid tool name
     * @return a policy that grants those tools and denies every other
     */
    static AccessPolicy allowOnly(String... toolNames) {
        requireNonNull(toolNames, "toolNames is null");
        Set<ToolName> allowed = Arrays.stream(toolNames).map(ToolName::new).collect(Collectors.toUnmodifiableSet());
        return new AllowOnly(allowed);
    }
}
