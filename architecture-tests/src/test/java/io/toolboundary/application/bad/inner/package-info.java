/** The inner half of a package cycle that stays inside one top-level package. */
package io.toolboundary.application.bad.inner;
