package io.ds2.operator;

import io.ds2.core.policy.SlotCapacity;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How many slots a FlinkDeployment in native mode can get: the Flink operator starts task managers
 * on demand, so the limit is what the namespace's ResourceQuotas leave for more task manager pods
 * (pods, CPU and memory, requests and limits; each pod asks for {@code spec.taskManager.resource},
 * limits by the operator's limit factors), plus the slots the job's task managers have now. A quota
 * with scopes, or whose usage the API server has not computed, is not counted.
 */
final class QuotaSlots {
  private static final Pattern FLINK_MEMORY =
      Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(b|k|kb|m|mb|g|gb|t|tb)?", Pattern.CASE_INSENSITIVE);

  private QuotaSlots() {}

  /**
   * @param quotas the ResourceQuotas of the resource's namespace
   * @param slotsNow the slots the job's task managers have now (Flink's {@code /overview})
   */
  static SlotCapacity of(
      GenericKubernetesResource r, List<ResourceQuota> quotas, OptionalInt slotsNow) {
    Map<String, Object> conf = FlinkKinds.flinkConfiguration(r);
    int slotsPerTm = intOr(conf.get("taskmanager.numberOfTaskSlots"), 1);
    OptionalDouble cpu = number(FlinkKinds.string(r, "spec", "taskManager", "resource", "cpu"));
    OptionalDouble memory =
        FlinkKinds.string(r, "spec", "taskManager", "resource", "memory")
            .map(QuotaSlots::bytes)
            .orElse(OptionalDouble.empty());
    double cpuLimit = doubleOr(conf.get("kubernetes.taskmanager.cpu.limit-factor"), 1);
    double memoryLimit = doubleOr(conf.get("kubernetes.taskmanager.memory.limit-factor"), 1);
    long room = Long.MAX_VALUE;
    String why = null;
    for (ResourceQuota q : quotas) {
      if (q.getSpec() == null
          || q.getSpec().getHard() == null
          || (q.getSpec().getScopes() != null && !q.getSpec().getScopes().isEmpty())
          || q.getSpec().getScopeSelector() != null) {
        continue;
      }
      Map<String, Quantity> used =
          q.getStatus() == null || q.getStatus().getUsed() == null
              ? Map.of()
              : q.getStatus().getUsed();
      for (var e : q.getSpec().getHard().entrySet()) {
        OptionalDouble perPod = perPod(e.getKey(), cpu, memory, cpuLimit, memoryLimit);
        if (perPod.isEmpty() || perPod.getAsDouble() <= 0 || !used.containsKey(e.getKey())) {
          continue;
        }
        BigDecimal free =
            Quantity.getAmountInBytes(e.getValue())
                .subtract(Quantity.getAmountInBytes(used.get(e.getKey())));
        long pods =
            Math.max(
                0,
                free.divide(BigDecimal.valueOf(perPod.getAsDouble()), 0, RoundingMode.FLOOR)
                    .longValue());
        if (pods < room) {
          room = pods;
          why =
              "ResourceQuota "
                  + q.getMetadata().getName()
                  + " leaves "
                  + e.getKey()
                  + " for "
                  + pods
                  + (pods == 1 ? " more task manager" : " more task managers");
        }
      }
    }
    if (why == null || slotsNow.isEmpty()) {
      return SlotCapacity.unknown();
    }
    long slots = slotsNow.getAsInt() + room * slotsPerTm;
    return SlotCapacity.of(
        (int) Math.min(Integer.MAX_VALUE, slots),
        why
            + " of "
            + slotsPerTm
            + (slotsPerTm == 1 ? " slot" : " slots")
            + ", besides the "
            + slotsNow.getAsInt()
            + " its task managers have");
  }

  /** What one task manager pod takes of a quota's {@code key}, if the quota limits it. */
  private static OptionalDouble perPod(
      String key, OptionalDouble cpu, OptionalDouble memory, double cpuLimit, double memoryLimit) {
    return switch (key) {
      case "pods", "count/pods" -> OptionalDouble.of(1);
      case "cpu", "requests.cpu" -> cpu;
      case "limits.cpu" -> scaled(cpu, cpuLimit);
      case "memory", "requests.memory" -> memory;
      case "limits.memory" -> scaled(memory, memoryLimit);
      default -> OptionalDouble.empty();
    };
  }

  private static OptionalDouble scaled(OptionalDouble v, double factor) {
    return v.isPresent() ? OptionalDouble.of(v.getAsDouble() * factor) : v;
  }

  /**
   * A task manager's memory in bytes: Flink's notation ({@code 2048m}, {@code 2g}: binary units),
   * or a Kubernetes quantity ({@code 2Gi}).
   */
  static OptionalDouble bytes(String memory) {
    String m = memory.trim();
    if (m.endsWith("i")) {
      try {
        return OptionalDouble.of(Quantity.getAmountInBytes(new Quantity(m)).doubleValue());
      } catch (IllegalArgumentException e) {
        return OptionalDouble.empty();
      }
    }
    Matcher x = FLINK_MEMORY.matcher(m);
    if (!x.matches()) {
      return OptionalDouble.empty();
    }
    String unit = x.group(2) == null ? "b" : x.group(2).toLowerCase(Locale.ROOT).substring(0, 1);
    int shift =
        switch (unit) {
          case "k" -> 10;
          case "m" -> 20;
          case "g" -> 30;
          case "t" -> 40;
          default -> 0;
        };
    return OptionalDouble.of(Double.parseDouble(x.group(1)) * Math.pow(2, shift));
  }

  private static OptionalDouble number(Optional<String> s) {
    try {
      return s.isPresent()
          ? OptionalDouble.of(Double.parseDouble(s.get().trim()))
          : OptionalDouble.empty();
    } catch (NumberFormatException e) {
      return OptionalDouble.empty();
    }
  }

  private static int intOr(Object v, int otherwise) {
    try {
      return v == null ? otherwise : Math.max(1, Integer.parseInt(v.toString().trim()));
    } catch (NumberFormatException e) {
      return otherwise;
    }
  }

  private static double doubleOr(Object v, double otherwise) {
    try {
      return v == null ? otherwise : Double.parseDouble(v.toString().trim());
    } catch (NumberFormatException e) {
      return otherwise;
    }
  }
}
