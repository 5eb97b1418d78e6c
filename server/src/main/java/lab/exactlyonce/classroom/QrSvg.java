package lab.exactlyonce.classroom;

import io.nayuki.qrcodegen.QrCode;

/** A QR code as an SVG drawing (one path of unit squares, a 4-module quiet zone), rendered on the server. */
final class QrSvg {
  private static final int BORDER = 4;

  private QrSvg() {}

  static String of(String text, String title) {
    QrCode qr = QrCode.encodeText(text, QrCode.Ecc.MEDIUM);
    int size = qr.size + BORDER * 2;
    var path = new StringBuilder();
    for (int y = 0; y < qr.size; y++) {
      for (int x = 0; x < qr.size; x++) {
        if (qr.getModule(x, y)) path.append('M').append(x + BORDER).append(',').append(y + BORDER).append("h1v1h-1z");
      }
    }
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " + size + " " + size + "\" role=\"img\""
        + " shape-rendering=\"crispEdges\"><title>" + escape(title) + "</title>"
        + "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>"
        + "<path d=\"" + path + "\" fill=\"#000000\"/></svg>\n";
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
