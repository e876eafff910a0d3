package dev.plinth.conformance

import com.fasterxml.jackson.core.type.TypeReference
import com.fasterxml.jackson.databind.ObjectMapper
import dev.plinth.Plinth
import java.io.File
import kotlin.reflect.KClass
import kotlin.reflect.KVisibility
import kotlin.reflect.full.declaredMemberFunctions
import kotlin.reflect.full.memberProperties
import kotlin.reflect.full.superclasses
import kotlin.system.exitProcess

// methods.json cannot lie: every name it lists is a public function of the client (by Kotlin reflection), and every
// public function of every resource (`plinth.accounts`, …) is listed. Run by conformance.sh: `ManifestCheckKt methods.json`.
// The event stream (`events.stream`) is no operation of the SDK view (Server-Sent Events are hand-written transport),
// so the manifest cannot name it.
private val notOperations = setOf("events.stream")

/** The resources: public properties of [Plinth] whose class is built from the client (`Accounts(plinth)`). */
private val resources: Map<String, KClass<*>> = Plinth::class.memberProperties
    .filter { it.visibility == KVisibility.PUBLIC }
    .mapNotNull { p ->
        val type = p.returnType.classifier as? KClass<*> ?: return@mapNotNull null
        val fromClient = type.java.declaredConstructors.any { it.parameterTypes.toList() == listOf(Plinth::class.java) }
        if (fromClient) p.name to type else null
    }.toMap()

/** The public functions a class declares and those of the generated class it extends (`AccountsOperations`). */
private fun publicFunctions(type: KClass<*>): Set<String> =
    generateSequence(type) { c -> c.superclasses.firstOrNull { it.java.packageName == type.java.packageName } }
        .flatMap { c -> c.declaredMemberFunctions.filter { it.visibility == KVisibility.PUBLIC }.map { it.name } }.toSet()

private fun exists(name: String): Boolean {
    val (owner, method) = name.split('.').takeIf { it.size == 2 } ?: return false
    if (owner == "Plinth") return method in publicFunctions(Plinth.Companion::class)
    return method in publicFunctions(resources[owner] ?: return false)
}

fun main(args: Array<String>) {
    val manifest: Map<String, List<String>> = ObjectMapper().readValue(File(args[0]), object : TypeReference<Map<String, List<String>>>() {})
    val listed = manifest.values.flatten().toSet()
    val problems = manifest.flatMap { (op, names) -> names.filterNot(::exists).map { "$op: $it is not a public function of the client" } } +
        resources.flatMap { (resource, type) -> publicFunctions(type).map { "$resource.$it" }.filterNot { it in listed || it in notOperations }.map { "$it is not in methods.json" } }
    if (problems.isNotEmpty()) {
        problems.sorted().forEach { println("FAIL manifest: $it") }
        exitProcess(1)
    }
    println("ok   manifest: ${listed.size} methods for ${manifest.size} operations")
}
