// Runs a publisher's Schematron XSLT under Java Saxon-HE (s9api) on each file given and prints, per
// file, one line: the file name, a tab, then each svrl:failed-assert and svrl:successful-report in
// document order as id:flag, separated by spaces. Used by tests that compare our findings with Java's.
// Usage: java -cp Saxon-HE.jar:. SvrlFindings <xslt> <file>...
import java.io.File;
import javax.xml.transform.stream.StreamSource;
import net.sf.saxon.s9api.*;

public class SvrlFindings {
  public static void main(String[] args) throws Exception {
    Processor processor = new Processor(false);
    XsltExecutable xslt = processor.newXsltCompiler().compile(new StreamSource(new File(args[0])));
    XPathCompiler xpath = processor.newXPathCompiler();
    xpath.declareNamespace("svrl", "http://purl.oclc.org/dsdl/svrl");
    XPathSelector findings = xpath.compile("//(svrl:failed-assert | svrl:successful-report)").load();
    for (int i = 1; i < args.length; i++) {
      XsltTransformer transformer = xslt.load();
      transformer.setSource(new StreamSource(new File(args[i])));
      XdmDestination svrl = new XdmDestination();
      transformer.setDestination(svrl);
      transformer.transform();
      findings.setContextItem(svrl.getXdmNode());
      StringBuilder line = new StringBuilder(new File(args[i]).getName()).append('\t');
      for (XdmItem item : findings) {
        XdmNode node = (XdmNode) item;
        line.append(node.getAttributeValue(new QName("id"))).append(':').append(node.getAttributeValue(new QName("flag"))).append(' ');
      }
      System.out.println(line.toString().trim());
    }
  }
}
