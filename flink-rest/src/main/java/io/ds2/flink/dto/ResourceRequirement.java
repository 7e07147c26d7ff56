package io.ds2.flink.dto;

/** One vertex's entry in {@code /jobs/:jid/resource-requirements}. */
public record ResourceRequirement(Parallelism parallelism) {
  public record Parallelism(int lowerBound, int upperBound) {}

  public static ResourceRequirement exactly(int p) {
    return new ResourceRequirement(new Parallelism(p, p));
  }
}
