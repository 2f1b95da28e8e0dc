// Times Java Saxon-HE (Debian's libsaxonhe-java, 9.9) running the publishers' XSLT of the CEN and
// Peppol rules on the documents `npm run bench -- validation` gives it: parse each document once,
// run both stylesheets, warm (JIT) first. Prints one line per document and run:
// "<index>\t<ms>\t<failed asserts>\t<parse ms>\t<CEN ms>\t<Peppol ms>\t<CPU ms>" (the stages add up to <ms>;
// CPU: this thread's CPU time plus the collectors' time, which the serial collector spends in another thread).
// Usage: java -cp Saxon-HE.jar:. ValidationBench <xslt-dir> <warmup-runs> <runs> <file>...
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import javax.xml.transform.stream.StreamSource;
import net.sf.saxon.s9api.DocumentBuilder;
import net.sf.saxon.s9api.Processor;
import net.sf.saxon.s9api.QName;
import net.sf.saxon.s9api.XdmDestination;
import net.sf.saxon.s9api.XdmNode;
import net.sf.saxon.s9api.XsltExecutable;
import net.sf.saxon.s9api.XsltTransformer;
import net.sf.saxon.s9api.XdmSequenceIterator;
import net.sf.saxon.s9api.Axis;

public class ValidationBench {
  static final QName FAILED = new QName("http://purl.oclc.org/dsdl/svrl", "failed-assert");

  static int failedAsserts(XdmNode node) {
    int n = 0;
    XdmSequenceIterator<XdmNode> it = node.axisIterator(Axis.DESCENDANT, FAILED);
    while (it.hasNext()) { it.next(); n++; }
    return n;
  }

  static long gcMillis() {
    long ms = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) ms += Math.max(0, gc.getCollectionTime());
    return ms;
  }

  public static void main(String[] args) throws Exception {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    File dir = new File(args[0]);
    int warmup = Integer.parseInt(args[1]);
    int runs = Integer.parseInt(args[2]);
    Processor processor = new Processor(false);
    List<XsltExecutable> rules = new ArrayList<>();
    for (String name : new String[] {"CEN-EN16931-UBL-1.3.16.xslt", "PEPPOL-EN16931-UBL-3.0.21.xslt"}) {
      rules.add(processor.newXsltCompiler().compile(new StreamSource(new File(dir, name))));
    }
    DocumentBuilder builder = processor.newDocumentBuilder();
    for (int round = 0; round < warmup + runs; round++) {
      for (int i = 3; i < args.length; i++) {
        long cpu = threads.getCurrentThreadCpuTime();
        long gc = gcMillis();
        long start = System.nanoTime();
        XdmNode doc = builder.build(new StreamSource(new File(args[i])));
        long[] marks = new long[rules.size() + 1];
        marks[0] = System.nanoTime();
        int failed = 0;
        for (int r = 0; r < rules.size(); r++) {
          XsltTransformer t = rules.get(r).load();
          t.setInitialContextNode(doc);
          XdmDestination out = new XdmDestination();
          t.setDestination(out);
          t.transform();
          failed += failedAsserts(out.getXdmNode());
          marks[r + 1] = System.nanoTime();
        }
        double ms = (marks[rules.size()] - start) / 1e6;
        StringBuilder line = new StringBuilder().append(i - 3).append('\t').append(ms).append('\t').append(failed);
        line.append('\t').append((marks[0] - start) / 1e6);
        for (int r = 0; r < rules.size(); r++) line.append('\t').append((marks[r + 1] - marks[r]) / 1e6);
        line.append('\t').append((threads.getCurrentThreadCpuTime() - cpu) / 1e6 + (gcMillis() - gc));
        if (round >= warmup) System.out.println(line);
      }
    }
  }
}
