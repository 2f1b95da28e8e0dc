FROM node:24-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
# compiled once into the image: a container start runs JavaScript, no TypeScript compile
RUN npm run build
ENV HOST=0.0.0.0 PORT=8080
EXPOSE 8080
# node itself, not npm: SIGTERM from `docker stop` reaches the service's shutdown handler
CMD ["node", "dist/src/main.js"]
