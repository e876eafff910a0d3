package dev.plinth

/**
 * The one error every Plinth call raises: an RFC 9457 problem from the server, or a transport failure after all
 * retries ([status] 0, [code] `connection_error`). [code] is an open string: the server's list grows.
 */
class PlinthException(
    /** The HTTP status; 0 when no response arrived. */
    val status: Int,
    val code: String,
    /** The first offending input (dotted field path or header name). */
    val param: String?,
    /** Every offending input; empty when the problem lists none. */
    val errors: List<ErrorDetail>,
    /** Equal to the `Request-Id` header of the failed response. */
    val requestId: String?,
    val type: String?,
    val title: String?,
    val detail: String?,
    val headers: Map<String, List<String>> = emptyMap(),
    val rawBody: String? = null,
    cause: Throwable? = null,
) : RuntimeException("$status $code${detail?.let { ": $it" } ?: ""}${requestId?.let { " [$it]" } ?: ""}", cause) {
    data class ErrorDetail(val code: String?, val param: String?, val detail: String?)
}
