package io.ds2.core.window;

/**
 * What arrives at a source, read from how old the records it emits are (Flink's {@code
 * currentEmitEventTimeLag}, per subtask). A subtask reading {@code r} records/s of partitions where
 * {@code a} arrive emits ever older records: their age grows by {@code 1 - r/a} a second, whatever
 * its client has already fetched, so {@code a = r / (1 - growth)}. It says what the Kafka lag gauge
 * cannot where the source never waits: a consumer held back by its job fetches nothing, so its lag
 * stands; one at Kafka's default fetch holds records its lag does not count ({@link HiddenHeads}).
 *
 * <p>Fitted only from a moment each subtask was at its heads ({@link SourceAge}): a consumer behind
 * its partitions emits one partition's fetched chunk after another, so the age is a sawtooth of a
 * chunk's span; and after a restart every chunk starts from the checkpoint, so the age rises about
 * a second a second for a whole pass over the partitions, whatever arrives. From the heads, both
 * stay within what the source has fallen behind.
 *
 * @param arrivalRate records/s arriving at the whole vertex: per subtask, {@code r / (1 - growth)},
 *     summed
 * @param readRate records/s the vertex read over the same spans
 * @param growth the largest growth of any subtask's age, seconds per second (after the cap)
 * @param sinceHeadsSeconds the longest time since a subtask was last at its heads
 * @param capped whether a subtask's growth was cut to {@link SourceAge#MAX_GROWTH}
 */
public record RecordAge(
    double arrivalRate, double readRate, double growth, double sinceHeadsSeconds, boolean capped) {}
