/** The project's architecture rules, and the proof that each rule catches a class that breaks it. */
package io.toolboundary.architecture;
