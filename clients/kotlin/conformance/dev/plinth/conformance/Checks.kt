package dev.plinth.conformance

import dev.plinth.PlinthException

internal fun check(ok: Boolean, what: () -> String) {
    if (!ok) throw AssertionError(what())
}

internal fun expectError(block: () -> Unit): PlinthException {
    try {
        block()
    } catch (e: PlinthException) {
        return e
    }
    throw AssertionError("expected a PlinthException")
}
