/**
 * The engine lab: the Sandbox tab's "Run on real Kafka + Flink". The scenarios run in a JVM of their own
 * ({@link lab.exactlyonce.enginelab.EngineProcess}, the jar built from {@code server/engine-lab}), never in the app's
 * and never with learner code: the app sends a scenario and knob values, the engines send back phases and a result.
 * {@link lab.exactlyonce.enginelab.RealRuns} runs one at a time, queues a bounded number and keeps each result per
 * scenario and knob values. On where its jar is built and the host has the memory ({@code --engine-lab auto}, the
 * default).
 */
package lab.exactlyonce.enginelab;
