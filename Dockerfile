# Multi-stage build of the same runnable jar the README uses.
#   docker build -t exactly-once-lab .
#   docker run --rm -p 7070:7070 --read-only --tmpfs /tmp -v eolab-data:/data exactly-once-lab
# Docker's default seccomp profile refuses the namespaces bubblewrap and unshare need, so there sandbox workers are
# plain child processes that load the seccomp filter themselves, each as a uid of its own, with no network
# (confinement network; the instructor's pages say what is missing). The one flag that adds the namespaces, for the
# hardened level (docs/sandbox.md, "Where the app runs"):
#   docker run --rm -p 7070:7070 --read-only --tmpfs /tmp -v eolab-data:/data \
#     --security-opt no-new-privileges --security-opt seccomp=docs/docker/seccomp-sandbox.json \
#     --pids-limit 2048 --memory 2g exactly-once-lab --sandbox-confinement hardened
# The engine lab (real Kafka + Flink runs from the Sandbox tab) is in the image and on where the container's memory
# limit leaves 512 MB for it (about 400 MB resident); -e ENGINE_LAB=off leaves it out:
#   docker run --rm -p 7070:7070 --read-only --tmpfs /tmp -v eolab-data:/data -e ENGINE_LAB=off exactly-once-lab
FROM maven:3.9-eclipse-temurin-17 AS build
WORKDIR /src
COPY pom.xml .
RUN mvn -B -q dependency:go-offline
COPY server server
COPY web web
COPY lessons lessons
COPY snippets snippets
RUN mvn -B -q package -DskipTests

FROM eclipse-temurin:17-jre
# bubblewrap confines each sandbox worker (own namespaces, seccomp filter) where the container's profile allows it;
# util-linux provides unshare and setpriv (each worker's own uid); iproute2 brings up the engine lab's own loopback.
RUN apt-get update \
 && apt-get install -y --no-install-recommends bubblewrap util-linux iproute2 \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /data \
 && chmod 0700 /data
WORKDIR /app
COPY --from=build /src/target/exactly-once-lab.jar /app/exactly-once-lab.jar
COPY --from=build /src/target/engine-lab/exactly-once-engine-lab.jar /app/engine-lab/exactly-once-engine-lab.jar
# The server stays root inside the container (with Docker's reduced capabilities) for one reason: to start every
# sandbox worker as a uid of its own (setpriv), so that no worker can read, trace or signal another even where the
# profile allows no namespace. Workers drop every capability and never run as root.
ENV PORT=7070 DATA_DIR=/data ENGINE_LAB_JAR=/app/engine-lab/exactly-once-engine-lab.jar
EXPOSE 7070
VOLUME ["/data"]
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["java", "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp", "/app/exactly-once-lab.jar", "lab.exactlyonce.HealthCheck"]
ENTRYPOINT ["java", "-XX:+ExitOnOutOfMemoryError", "-jar", "/app/exactly-once-lab.jar"]
