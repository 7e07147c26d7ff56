package io.ds2.flink.dto;

/**
 * One entry of a metrics endpoint. Without {@code get=} only {@code id} is set (discovery); with
 * it, {@code value} is the metric as a string ({@code "123.0"}, {@code "NaN"}).
 */
public record MetricValue(String id, String value) {}
