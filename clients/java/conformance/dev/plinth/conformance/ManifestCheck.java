package dev.plinth.conformance;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.plinth.Plinth;
import java.io.File;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * methods.json cannot lie: every name it lists is a public method of the client (by reflection), and every public
 * method of every resource ({@code plinth.accounts()}, …) is listed. Run by conformance.sh:
 * {@code java … ManifestCheck methods.json}. The event stream ({@code events.stream}) is no operation of the SDK view
 * (Server-Sent Events are hand-written transport), so the manifest cannot name it.
 */
public final class ManifestCheck {
  private static final Set<String> NOT_OPERATIONS = Set.of("events.stream");

  public static void main(String[] args) throws Exception {
    Map<String, List<String>> manifest = new ObjectMapper().readValue(new File(args[0]),
        new TypeReference<Map<String, List<String>>>() {});
    List<String> problems = new ArrayList<>();
    Set<String> listed = new TreeSet<>();
    for (Map.Entry<String, List<String>> op : manifest.entrySet()) {
      for (String name : op.getValue()) {
        listed.add(name);
        if (!exists(name)) problems.add(op.getKey() + ": " + name + " is not a public method of the client");
      }
    }
    for (Method accessor : Plinth.class.getMethods()) {
      if (!isResourceAccessor(accessor)) continue;
      for (Method m : declaredMethods(accessor.getReturnType())) {
        String name = accessor.getName() + "." + m.getName();
        if (Modifier.isPublic(m.getModifiers()) && !listed.contains(name) && !NOT_OPERATIONS.contains(name)) problems.add(name + " is not in methods.json");
      }
    }
    if (!problems.isEmpty()) {
      new TreeSet<>(problems).forEach(p -> System.out.println("FAIL manifest: " + p));
      System.exit(1);
    }
    System.out.println("ok   manifest: " + listed.size() + " methods for " + manifest.size() + " operations");
  }

  /** {@code Plinth.signUp} (static) or {@code resource.method} ({@code plinth.resource().method(…)}). */
  private static boolean exists(String name) {
    String[] parts = name.split("\\.");
    if (parts.length != 2) return false;
    if (parts[0].equals("Plinth")) {
      return publicMethods(Plinth.class, parts[1]).stream().anyMatch(m -> Modifier.isStatic(m.getModifiers()));
    }
    for (Method accessor : publicMethods(Plinth.class, parts[0])) {
      if (isResourceAccessor(accessor) && !publicMethods(accessor.getReturnType(), parts[1]).isEmpty()) return true;
    }
    return false;
  }

  /** A resource: {@code plinth.x()} returning a class of the layer built from the client ({@code new X(plinth)}). */
  private static boolean isResourceAccessor(Method m) {
    if (Modifier.isStatic(m.getModifiers()) || m.getParameterCount() != 0) return false;
    for (var c : m.getReturnType().getDeclaredConstructors()) {
      if (c.getParameterCount() == 1 && c.getParameterTypes()[0] == Plinth.class) return true;
    }
    return false;
  }

  /** The methods a resource declares and those of the generated class it extends ({@code AccountsOperations}). */
  private static List<Method> declaredMethods(Class<?> type) {
    List<Method> found = new ArrayList<>();
    for (Class<?> c = type; c != null && c.getPackage() == Plinth.class.getPackage(); c = c.getSuperclass()) {
      found.addAll(List.of(c.getDeclaredMethods()));
    }
    return found;
  }

  private static List<Method> publicMethods(Class<?> type, String name) {
    List<Method> found = new ArrayList<>();
    for (Method m : type.getMethods()) if (m.getName().equals(name)) found.add(m);
    return found;
  }
}
