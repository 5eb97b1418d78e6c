package lab.exactlyonce.sandbox.engine;

import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * javac's whole view of files for one compilation: the JDK's own modules (through the standard manager), the
 * in-memory class files of the library (the {@link Trace} API, an exercise's provided classes) as the class path,
 * and nothing else. There is no source path, no annotation processor path and no output directory: every other
 * location is empty, so no source can make javac read or write a file of the host, and class files are kept here.
 */
final class MemoryFileManager extends ForwardingJavaFileManager<StandardJavaFileManager> {
  private final Map<String, byte[]> library;
  private final Map<String, ByteArrayOutputStream> output = new LinkedHashMap<>();

  /** @param library binary name (dotted) to class file */
  MemoryFileManager(StandardJavaFileManager standard, Map<String, byte[]> library) {
    super(standard);
    this.library = library;
  }

  /** The class files javac wrote, by binary name, in the order it wrote them. */
  Map<String, byte[]> classes() {
    Map<String, byte[]> out = new LinkedHashMap<>();
    for (Map.Entry<String, ByteArrayOutputStream> e : output.entrySet()) out.put(e.getKey(), e.getValue().toByteArray());
    return out;
  }

  /**
   * The JDK's modules: the system modules and the module locations the standard manager listed for them (javac's
   * own location type; every location this manager offers otherwise is a {@link StandardLocation}).
   */
  private static boolean jdk(Location location) {
    return location == StandardLocation.PLATFORM_CLASS_PATH || location == StandardLocation.SYSTEM_MODULES
        || !(location instanceof StandardLocation);
  }

  @Override
  public boolean hasLocation(Location location) {
    return jdk(location) || location == StandardLocation.CLASS_PATH || location == StandardLocation.CLASS_OUTPUT;
  }

  @Override
  public Iterable<Set<Location>> listLocationsForModules(Location location) throws IOException {
    return jdk(location) ? super.listLocationsForModules(location) : List.of();
  }

  @Override
  public Iterable<JavaFileObject> list(Location location, String packageName, Set<JavaFileObject.Kind> kinds,
                                       boolean recurse) throws IOException {
    if (jdk(location)) return super.list(location, packageName, kinds, recurse);
    if (location != StandardLocation.CLASS_PATH || !kinds.contains(JavaFileObject.Kind.CLASS)) return List.of();
    List<JavaFileObject> found = new ArrayList<>();
    for (Map.Entry<String, byte[]> e : library.entrySet()) {
      String name = e.getKey();
      int dot = name.lastIndexOf('.');
      String pkg = dot < 0 ? "" : name.substring(0, dot);
      if (pkg.equals(packageName) || recurse && pkg.startsWith(packageName + ".")) found.add(new LibraryClass(name, e.getValue()));
    }
    return found;
  }

  @Override
  public Location getLocationForModule(Location location, String moduleName) throws IOException {
    return jdk(location) ? super.getLocationForModule(location, moduleName) : null;
  }

  @Override
  public Location getLocationForModule(Location location, JavaFileObject file) throws IOException {
    return jdk(location) ? super.getLocationForModule(location, file) : null;
  }

  @Override
  public String inferBinaryName(Location location, JavaFileObject file) {
    if (file instanceof LibraryClass) return ((LibraryClass) file).binaryName;
    return super.inferBinaryName(location, file);
  }

  @Override
  public boolean isSameFile(FileObject a, FileObject b) {
    return a == b || !(a instanceof SimpleJavaFileObject) && !(b instanceof SimpleJavaFileObject) && super.isSameFile(a, b);
  }

  @Override
  public JavaFileObject getJavaFileForInput(Location location, String className, JavaFileObject.Kind kind)
      throws IOException {
    return jdk(location) ? super.getJavaFileForInput(location, className, kind) : null;
  }

  @Override
  public FileObject getFileForInput(Location location, String packageName, String relativeName) throws IOException {
    return jdk(location) ? super.getFileForInput(location, packageName, relativeName) : null;
  }

  @Override
  public JavaFileObject getJavaFileForOutput(Location location, String className, JavaFileObject.Kind kind,
                                             FileObject sibling) {
    if (location != StandardLocation.CLASS_OUTPUT || kind != JavaFileObject.Kind.CLASS) {
      throw new IllegalArgumentException("the sandbox's compiler writes class files only");
    }
    return new SimpleJavaFileObject(URI.create("mem:///" + className.replace('.', '/') + ".class"), kind) {
      @Override
      public OutputStream openOutputStream() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        output.put(className, bytes);
        return bytes;
      }
    };
  }

  @Override
  public FileObject getFileForOutput(Location location, String packageName, String relativeName, FileObject sibling) {
    throw new IllegalArgumentException("the sandbox's compiler writes class files only");
  }

  /** A class of the library, read from memory. */
  private static final class LibraryClass extends SimpleJavaFileObject {
    private final String binaryName;
    private final byte[] bytes;

    LibraryClass(String binaryName, byte[] bytes) {
      super(URI.create("mem:///library/" + binaryName.replace('.', '/') + ".class"), Kind.CLASS);
      this.binaryName = binaryName;
      this.bytes = bytes;
    }

    @Override
    public InputStream openInputStream() {
      return new ByteArrayInputStream(bytes);
    }
  }
}
