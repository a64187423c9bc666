// Quick-create templates of common kinds: each opens in the manifest editor, ready for Create or Apply.

export interface Template {
  id: string;
  label: string;
  yaml: string;
}

export function templates(namespace = 'default'): Template[] {
  const ns = namespace || 'default';
  return [
    {
      id: 'configmap',
      label: 'ConfigMap',
      yaml: `apiVersion: v1
kind: ConfigMap
metadata:
  name: example-config
  namespace: ${ns}
data:
  greeting: hello
  settings.json: |
    {"debug": false}
`,
    },
    {
      id: 'deployment',
      label: 'Deployment',
      yaml: `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: ${ns}
  labels:
    app: web
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
        - name: app
          image: nginx:1.27
          ports:
            - containerPort: 80
`,
    },
    {
      id: 'service',
      label: 'Service',
      yaml: `apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: ${ns}
spec:
  selector:
    app: web
  ports:
    - name: http
      port: 80
      targetPort: 80
`,
    },
    {
      id: 'pod',
      label: 'Pod',
      yaml: `apiVersion: v1
kind: Pod
metadata:
  name: hello
  namespace: ${ns}
spec:
  restartPolicy: Never
  containers:
    - name: hello
      image: busybox:1.36
      command: ["sh", "-c", "echo hello"]
`,
    },
    {
      id: 'job',
      label: 'Job',
      yaml: `apiVersion: batch/v1
kind: Job
metadata:
  name: pi
  namespace: ${ns}
spec:
  backoffLimit: 2
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: pi
          image: perl:5.34
          command: ["perl", "-Mbignum=bpi", "-wle", "print bpi(200)"]
`,
    },
    {
      id: 'crd',
      label: 'CustomResourceDefinition (example)',
      yaml: `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names:
    plural: widgets
    singular: widget
    kind: Widget
    shortNames: [wd]
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              x-kubernetes-validations:
                - rule: "self.replicas <= self.maxReplicas"
                  message: replicas must not exceed maxReplicas
              properties:
                replicas:
                  type: integer
                  minimum: 0
                maxReplicas:
                  type: integer
                  default: 10
                color:
                  type: string
                  enum: [red, green, blue]
---
apiVersion: example.com/v1
kind: Widget
metadata:
  name: my-widget
  namespace: ${ns}
spec:
  replicas: 3
  color: blue
`,
    },
  ];
}
