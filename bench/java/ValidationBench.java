// Times Java Saxon-HE (Debian's libsaxonhe-java, 9.9) running the publishers' XSLT of the CEN and
// Peppol rules on the documents `npm run bench -- validation` gives it: parse each document once,
// run both stylesheets, warm (JIT) first. Prints one line per document and run: "<index>\t<ms>\t<failed asserts>".
// Usage: java -cp Saxon-HE.jar:. ValidationBench <xslt-dir> <warmup-runs> <runs> <file>...
import java.io.File;
import java.util.ArrayList;
import java.util.List;
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

  public static void main(String[] args) throws Exception {
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
        long start = System.nanoTime();
        XdmNode doc = builder.build(new StreamSource(new File(args[i])));
        int failed = 0;
        for (XsltExecutable rule : rules) {
          XsltTransformer t = rule.load();
          t.setInitialContextNode(doc);
          XdmDestination out = new XdmDestination();
          t.setDestination(out);
          t.transform();
          failed += failedAsserts(out.getXdmNode());
        }
        double ms = (System.nanoTime() - start) / 1e6;
        if (round >= warmup) System.out.println((i - 3) + "\t" + ms + "\t" + failed);
      }
    }
  }
}
