package io.ds2.core.policy;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What the policy keeps per vertex, found by the vertex's position in the estimate first and by its
 * id otherwise. Every window lists the same vertices in the same (topological) order, so at 1,000
 * vertices a lookup by position saves a hash lookup per vertex, several times a window; a vertex
 * found by id is remembered at its position for the next window.
 */
final class ByVertex<T> {
  private final Map<String, T> byId = new HashMap<>();
  private String[] ids = new String[0];
  private Object[] values = new Object[0];

  /** The vertex's value, made and kept if it has none. */
  T at(int position, String id, Supplier<T> make) {
    T found = find(position, id);
    if (found != null) {
      return found;
    }
    T made = make.get();
    byId.put(id, made);
    remember(position, id, made);
    return made;
  }

  /** The vertex's value, or null. */
  T find(int position, String id) {
    if (position < ids.length) {
      String known = ids[position];
      if (known != null && (known == id || known.equals(id))) {
        @SuppressWarnings("unchecked")
        T v = (T) values[position];
        return v;
      }
    }
    T v = byId.get(id);
    if (v != null) {
      remember(position, id, v);
    }
    return v;
  }

  /** The vertex's value by id alone, or null. */
  T get(String id) {
    return byId.get(id);
  }

  /** A value for a vertex whose position is not known (e.g. restored from a saved state). */
  void put(String id, T value) {
    byId.put(id, value);
    Arrays.fill(ids, null); // its position, if any, is found again by id
  }

  Map<String, T> asMap() {
    return byId;
  }

  void clear() {
    byId.clear();
    Arrays.fill(ids, null);
  }

  private void remember(int position, String id, T value) {
    if (position >= ids.length) {
      int n = Math.max(position + 1, 2 * ids.length);
      ids = Arrays.copyOf(ids, n);
      values = Arrays.copyOf(values, n);
    }
    ids[position] = id;
    values[position] = value;
  }
}
