"""What an SVG chart holds, read by a real XML parser (Python's minidom): the root, its size, the
text of every <text>, and its drawn paths. Used by the tests of the panels' SVG exports, so a chart
is checked by something other than the browser that drew it.

    python3 svg_facts.py FILE.svg  ->  JSON on standard output
"""
import json
import sys
from xml.dom import minidom


def text_of(node):
    return ''.join(n.data for n in node.childNodes if n.nodeType == n.TEXT_NODE)


def main(path):
    doc = minidom.parse(path)
    root = doc.documentElement
    paths = doc.getElementsByTagName('path')
    stroked = [p for p in paths if p.getAttribute('stroke') not in ('', 'none')]
    print(json.dumps({
        'tag': root.tagName,
        'ns': root.getAttribute('xmlns'),
        'width': root.getAttribute('width'),
        'height': root.getAttribute('height'),
        'texts': [text_of(t) for t in doc.getElementsByTagName('text')],
        'paths': len(paths),
        'stroked': len(stroked),
        'dashed': len([p for p in stroked if p.getAttribute('stroke-dasharray') not in ('', 'none')]),
        'elements': sorted({e.tagName for e in doc.getElementsByTagName('*')}),
    }))


if __name__ == '__main__':
    main(sys.argv[1])
