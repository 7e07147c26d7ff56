package io.ds2.experiments.scale;

import io.ds2.core.options.Ds2Options;
import io.ds2.flink.FlinkRestClient;
import io.ds2.operator.ChartRbac;
import io.ds2.operator.Ds2Operator;
import io.ds2.operator.EventRecorder;
import io.ds2.operator.FlinkEndpoints;
import io.ds2.operator.FlinkKinds;
import io.ds2.operator.LeaderElectedOperator;
import io.ds2.operator.OperatorMetrics;
import io.ds2.operator.RealKubernetes;
import io.ds2.operator.StandInFlinkOperator;
import io.ds2.testkit.FluidJob;
import io.ds2.testkit.SimulatedFlink;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * What the operator soak runs on, all real but Flink: kube-apiserver and etcd (RBAC on, the chart's
 * service account and rules), two ds2 replicas electing a leader on the chart's Lease at production
 * timings, one stand-in for the Flink operator per job, a change-freeze admission policy, and
 * simulated jobs behind one Flink REST endpoint. Every write a replica sends to a FlinkDeployment
 * is logged with who led at that moment.
 */
final class SoakCluster implements AutoCloseable {
  static final String NS = "flink";
  static final String RELEASE_NS = "ds2-system";
  static final String LEASE = "ds2-leader";

  /** A label that puts a resource under the change freeze (see {@link #freezePolicy}). */
  static final String FROZEN = "soak.ds2.io/frozen";

  /** What a job is there to show. */
  enum Role {
    PLAIN,
    /** Standalone, 3 task managers of 1 slot: at the high demand it needs 4 of its 3 slots. */
    CAPPED,
    /** Its stand-in marks some upgrades reconciled without rescaling the job. */
    REFUSED,
    /** Under a change freeze at times: the API server refuses ds2's patch of the spec. */
    FROZEN,
    /** Its stand-in pauses at times (a Flink operator busy or down). */
    SLOW
  }

  /** One write a replica sent to a FlinkDeployment, and who led when it went out. */
  record Write(
      long atMs,
      String replica,
      String method,
      String path,
      boolean writerLeads,
      boolean otherLeads) {}

  record Job(String name, Role role, FluidJob fluid, StandInFlinkOperator standIn) {}

  final RealKubernetes kube;
  final SimulatedFlink flink;
  final Map<String, Job> jobs = new LinkedHashMap<>();
  final Map<String, OperatorMetrics> metrics = new LinkedHashMap<>();
  final Map<String, LeaderElectedOperator> replicas = new LinkedHashMap<>();
  final ConcurrentLinkedQueue<Write> writes = new ConcurrentLinkedQueue<>();
  private final List<AutoCloseable> closing = new ArrayList<>();

  SoakCluster(List<Role> roles, double demand) throws Exception {
    kube = RealKubernetes.start();
    closing.add(kube);
    kube.namespaces(NS, RELEASE_NS);
    kube.installFlinkCrds();
    freezePolicy();
    flink = new SimulatedFlink(4);
    closing.add(flink);
    FlinkRestClient rest = new FlinkRestClient(flink.url(), Duration.ofSeconds(5));
    int i = 0;
    for (Role role : roles) {
      i++;
      String name = "job-" + i + "-" + role.name().toLowerCase(java.util.Locale.ROOT);
      FluidJob fluid =
          new FluidJob(
              String.format("%032x", i),
              List.of(
                  new FluidJob.Stage("s" + i, "Source: In", 0, 1),
                  new FluidJob.Stage("p" + i, "Parse", 0.01, 1),
                  new FluidJob.Stage("k" + i, "Sink", 0.006, 0)),
              demand,
              System.currentTimeMillis());
      flink.add(fluid);
      create(name, role, fluid);
      StandInFlinkOperator standIn =
          new StandInFlinkOperator(kube.admin(), NS, rest, fluid.id()).onlyItsJob();
      closing.add(standIn);
      jobs.put(name, new Job(name, role, fluid, standIn));
    }
    String sa = ChartRbac.apply(kube.admin(), "ds2", RELEASE_NS, Map.of(), null);
    for (String id : List.of("ds2-a", "ds2-b")) {
      KubernetesClient client = kube.clientAs(RELEASE_NS, sa, new WriteLog(id));
      OperatorMetrics m = new OperatorMetrics();
      metrics.put(id, m);
      replicas.put(
          id,
          new LeaderElectedOperator(
              client,
              () ->
                  new Ds2Operator(
                          client,
                          List.of(NS),
                          Ds2Options.defaults(),
                          new EventRecorder(client, Clock.systemUTC(), Duration.ofMinutes(30)),
                          m)
                      .withEndpoints(new FlinkEndpoints(List.of(flink.url()), Optional.empty())),
              // The chart's timings (OperatorCommand).
              new LeaderElectedOperator.Lease(
                  RELEASE_NS,
                  LEASE,
                  id,
                  Duration.ofSeconds(15),
                  Duration.ofSeconds(10),
                  Duration.ofSeconds(2))));
    }
  }

  void start() {
    replicas.values().forEach(LeaderElectedOperator::start);
  }

  /** The replica leading now, or "none". */
  String leader() {
    return replicas.entrySet().stream()
        .filter(e -> e.getValue().leading())
        .map(Map.Entry::getKey)
        .reduce((a, b) -> a + "+" + b)
        .orElse("none");
  }

  private void create(String name, Role role, FluidJob fluid) {
    Map<String, String> annotations = new HashMap<>();
    annotations.put("ds2.io/autoscaling", "enabled");
    annotations.put("ds2.io/flink-rest-url", flink.url().toString());
    Map<String, Object> spec = new HashMap<>();
    spec.put("flinkVersion", "v1_20");
    spec.put("job", Map.of("jarURI", "local:///job.jar", "state", "running"));
    if (role == Role.CAPPED) {
      spec.put("mode", "standalone");
      spec.put("taskManager", Map.of("replicas", 3));
      spec.put("flinkConfiguration", Map.of("taskmanager.numberOfTaskSlots", "1"));
    } else {
      spec.put("mode", "native");
      spec.put("flinkConfiguration", Map.of("taskmanager.numberOfTaskSlots", "2"));
    }
    GenericKubernetesResource r =
        new GenericKubernetesResourceBuilder()
            .withApiVersion(FlinkKinds.GROUP + "/" + FlinkKinds.VERSION)
            .withKind("FlinkDeployment")
            .withNewMetadata()
            .withName(name)
            .withNamespace(NS)
            .withAnnotations(annotations)
            .endMetadata()
            .withAdditionalProperties(Map.of("spec", spec))
            .build();
    GenericKubernetesResource created =
        kube.admin()
            .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
            .inNamespace(NS)
            .resource(r)
            .create();
    created.setAdditionalProperty("status", StandInFlinkOperator.status(1, fluid.id()));
    kube.admin()
        .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
        .inNamespace(NS)
        .resource(created)
        .updateStatus();
  }

  /**
   * A change freeze as a platform team writes one (a ValidatingAdmissionPolicy): while a
   * FlinkDeployment carries {@link #FROZEN}, no service account may change its spec.
   */
  private void freezePolicy() {
    String yaml =
        """
        apiVersion: admissionregistration.k8s.io/v1
        kind: ValidatingAdmissionPolicy
        metadata:
          name: soak-change-freeze
        spec:
          failurePolicy: Fail
          matchConstraints:
            resourceRules:
            - apiGroups: ["flink.apache.org"]
              apiVersions: ["*"]
              operations: ["UPDATE"]
              resources: ["flinkdeployments"]
          matchConditions:
          - name: service-accounts-only
            expression: "request.userInfo.username.startsWith('system:serviceaccount:')"
          validations:
          - expression: "object.spec == oldObject.spec"
            message: "change freeze: the spec of this FlinkDeployment may not change now"
        ---
        apiVersion: admissionregistration.k8s.io/v1
        kind: ValidatingAdmissionPolicyBinding
        metadata:
          name: soak-change-freeze
        spec:
          policyName: soak-change-freeze
          validationActions: [Deny]
          matchResources:
            objectSelector:
              matchLabels:
                soak.ds2.io/frozen: "true"
        """;
    kube.admin().resourceList(yaml).forceConflicts().serverSideApply();
  }

  /** Puts a resource under the change freeze, or takes it out. */
  void freeze(String name, boolean frozen) {
    kube.admin()
        .genericKubernetesResources(FlinkKinds.DEPLOYMENT)
        .inNamespace(NS)
        .withName(name)
        .edit(
            r -> {
              Map<String, String> labels =
                  r.getMetadata().getLabels() == null
                      ? new HashMap<>()
                      : new HashMap<>(r.getMetadata().getLabels());
              if (frozen) {
                labels.put(FROZEN, "true");
              } else {
                labels.remove(FROZEN);
              }
              r.getMetadata().setLabels(labels);
              return r;
            });
  }

  /** Logs the writes to FlinkDeployments one replica sends. */
  private final class WriteLog implements Interceptor {
    private final String replica;

    WriteLog(String replica) {
      this.replica = replica;
    }

    @Override
    public void before(BasicBuilder builder, HttpRequest request, Interceptor.RequestTags tags) {
      String method = request.method();
      if (!method.equals("GET") && request.uri().getPath().contains("/flinkdeployments")) {
        boolean self = false;
        boolean other = false;
        for (var e : replicas.entrySet()) {
          if (e.getKey().equals(replica)) {
            self = e.getValue().leading();
          } else {
            other |= e.getValue().leading();
          }
        }
        writes.add(
            new Write(
                System.currentTimeMillis(), replica, method, request.uri().getPath(), self, other));
      }
    }
  }

  @Override
  public void close() {
    replicas.values().forEach(LeaderElectedOperator::close);
    for (int i = closing.size() - 1; i >= 0; i--) {
      try {
        closing.get(i).close();
      } catch (Exception e) {
        // Closing what is left matters more than one failure to close.
      }
    }
  }
}
