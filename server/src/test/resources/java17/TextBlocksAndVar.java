import java.util.*;

public class Main {
  public static void main(String[] args) {
    String json = """
        {
          "name": "lab",
          "tabs": 3
        }
        """;
    System.out.print(json);
    String joined = """
        one \
        line\tand "quotes" \"""
        """;
    System.out.print(joined);
    var list = new ArrayList<Map<String, Integer>>();
    var map = new TreeMap<String, Integer>();
    map.put("b", 2);
    map.put("a", 1);
    list.add(map);
    for (var e : list.get(0).entrySet()) System.out.println(e.getKey() + "=" + e.getValue());
    var total = 0L;
    for (var i = 0; i < 5; i++) total += i;
    System.out.println(total + " " + json.lines().count() + " " + json.strip().length());
  }
}
